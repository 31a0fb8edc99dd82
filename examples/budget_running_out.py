#!/usr/bin/env python3
"""A budget running out: an analyst submits the same query until the ledger refuses it, and reads
what was requested and what remains from the problem details."""
from _setup import clients, privmat

admin, owner, analyst, analyst_name = clients("budget")
ds = owner.create_dataset("small-budget", "MATRIX", epsilon=0.5, delta=1e-6, rowNormBound=1.0)
owner.upload(ds, [[0.1, 0.2, 0.3], [0.3, 0.1, 0.0], [0.0, 0.6, 0.2]])
owner.grant(ds, analyst_name)

total = analyst.budget(ds.id).total.tracks.rho
print(f"budget: rho cap {total:.6g} (epsilon 0.5, delta 1e-6 under zCDP)")
spent_jobs = 0
while True:
    try:
        job = analyst.submit(ds.id, "COLUMN_SUMS", "GAUSSIAN", rho=0.001)
    except privmat.BudgetExhausted as e:
        print(f"refused after {spent_jobs} queries: {e.short_type} ({e.accounting}); "
              f"requested rho={e.requested.rho:.6g}, remaining rho={e.remaining.rho:.6g}")
        assert e.requested.rho > e.remaining.rho
        break
    job.wait(timeout=60, progress=False)
    spent_jobs += 1
    if spent_jobs % 5 == 0:
        print(f"{spent_jobs} queries, remaining rho={analyst.budget(ds.id).remaining.tracks.rho:.6g}")

# A smaller query may still fit: quote tells without charging.
remaining = analyst.budget(ds.id).remaining.tracks.rho
quote = analyst.quote(ds.id, "COLUMN_SUMS", "GAUSSIAN", rho=remaining * 0.9)
print(f"a query of rho={remaining * 0.9:.3g} is admissible: {quote.admissible}")
entries = list(analyst.ledger(ds.id))
print(f"ledger: {sum(e.type == 'COMMIT' for e in entries)} commits; the refused query left no entry")
print("budget running out: OK")
