#!/usr/bin/env python3
"""The README's worked session, in Python: an owner uploads a matrix with a budget, an analyst
quotes and runs a query, reads the result as JSON and as numpy, then the budget and the ledger."""
import numpy as np

from _setup import clients, noise_dominated, privmat

admin, owner, analyst, analyst_name = clients("session")

# 1. The owner creates a dataset: rows are the privacy units, each clipped to L2 norm <= 1, with a
#    total budget of epsilon = 1, delta = 1e-6 (zCDP accounting, the default).
ds = owner.create_dataset("ratings", "MATRIX", epsilon=1, delta=1e-6, rowNormBound=1.0)
print("created", ds.id, ds.kind, "budget", ds.budget.to_dict())

# 2. Uploads the data once (CSV with a header here; numpy arrays go up as .npy) and grants access.
uploaded = owner.upload(ds, "a,b,c\n0.1,0.2,-0.2\n3,4,0\n0,0.5,0.5\n")
print(f"uploaded {uploaded.rows} x {uploaded.cols}, clipped rows: {uploaded.clipped_rows}")
owner.grant(ds, analyst_name)

# 3. The analyst asks what a query costs (charges nothing), then submits it.
quote = analyst.quote(ds.id, "COLUMN_SUMS", "GAUSSIAN", rho=0.005)
print(f"quote: cost rho={quote.cost.rho:.6g}, admissible={quote.admissible}, sigma={quote.noise.sigma:.4g}, "
      f"remaining rho={quote.remaining.rho:.6g}")
job = analyst.submit(ds.id, "COLUMN_SUMS", "GAUSSIAN", rho=0.005, idempotency_key="first-sums")
job.wait(timeout=60)
result = job.result()                       # a typed ColumnSumsResult
sums = job.array()                          # the same numbers from the .npy body
print("column sums:", {name: round(float(v), 3) for name, v in zip(result.columns, sums)}, "charged:",
      result.loss.charged.to_dict())
assert result.columns == ["a", "b", "c"], "the header's names come back with the result"
if noise_dominated(result):
    # Three rows carry at most 3 per column, against noise of sigma = 20: the service says so (the
    # warning above), from the released values alone. Thousands of rows would stand clear of it.
    print("the column sums are flagged noise-dominated: a 3-row toy cannot outweigh sigma =",
          f"{quote.noise.sigma:.3g}")
assert np.allclose(result.column_sums, sums)

# The analyst sees only public facts of the dataset (no non-zero or clipped counts):
seen = analyst.dataset(ds.id)
print("analyst sees clippedRows:", seen.clipped_rows, "nnz:", seen.nnz)

# 4. The budget and its append-only ledger.
budget = analyst.budget(ds.id)
print(f"budget: spent rho={budget.spent.tracks.rho:.6g} of {budget.total.tracks.rho:.6g}")
for entry in owner.ledger(ds.id):
    print(f"  ledger {entry.type:8s} job {entry.job_id} rho={entry.rho}")

# Errors are problem details, raised with their members:
try:
    owner.create_dataset("x", "GRAPH", epsilon=-1, delta=1e-6, vertices={"count": 3})
except privmat.InvalidParameter as e:
    print(f"refused: parameter={e.parameter} allowed={e.allowed_range}: {e.detail}")

# 5. The owner deletes the dataset; the ledger outlives it.
owner.delete_dataset(ds.id)
print("deleted; ledger entries still readable:", len(list(owner.ledger(ds.id))))
print("worked session: OK")
