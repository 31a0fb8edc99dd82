"""A session through the privmat client as pip installed it (not the source tree): keys, dataset,
upload, grant, quote, submit, wait, typed result, budget, and a problem as an exception.

Run by PythonClientTest with a fresh virtual environment's python, from outside the repository:
python installed_client_session.py <service URL> <admin key>. Works without numpy (nested lists go up
as .npy written by the standard library; results are JSON); with numpy it also reads the .npy result.
Prints "installed client: OK" at the end.
"""
import sys
import uuid

import privmat

url, admin_key = sys.argv[1], sys.argv[2]
here = privmat.__file__
if "site-packages" not in here:
    sys.exit(f"privmat was imported from {here}, not from an installed copy")
try:
    import numpy
except ImportError:
    numpy = None
print("privmat", privmat.__version__, "from", here, "numpy", "present" if numpy else "absent")

admin = privmat.Client(url, admin_key)
run = uuid.uuid4().hex[:8]
owner = admin.with_key(admin.create_api_key("installed-owner-" + run, "OWNER").key)
analyst_subject = "installed-analyst-" + run
analyst = admin.with_key(admin.create_api_key(analyst_subject, "ANALYST").key)

ds = owner.create_dataset("installed", "MATRIX", epsilon=1, delta=1e-6, rowNormBound=1.0)
rows = [[0.1 * (i % 7), 0.05 * (i % 5), -0.02 * (i % 3)] for i in range(100)]
uploaded = owner.upload(ds, rows)
assert (uploaded.rows, uploaded.cols, uploaded.status) == (100, 3, "READY"), uploaded
owner.grant(ds, analyst_subject)

quote = analyst.quote(ds.id, "COLUMN_SUMS", "GAUSSIAN", rho=0.005)
assert quote.admissible and quote.noise.sigma > 0, quote
job = analyst.submit(ds.id, "COLUMN_SUMS", "GAUSSIAN", rho=0.005).wait(timeout=60)
result = job.result()
assert isinstance(result, privmat.models.ColumnSumsResult), type(result)
assert len(result.column_sums) == 3, result
print("column sums:", [round(v, 2) for v in result.column_sums])
if numpy is not None:
    assert numpy.allclose(job.array(), result.column_sums)
else:
    try:
        job.array()
        raise AssertionError("array() without numpy")
    except privmat.PrivmatError as e:
        assert "numpy" in str(e), e
budget = analyst.budget(ds.id)
assert budget.spent.tracks.rho > 0, budget
try:
    analyst.submit(ds.id, "COLUMN_SUMS", "GAUSSIAN", rho=50)
    raise AssertionError("a query beyond the budget was admitted")
except privmat.BudgetExhausted as e:
    assert e.accounting == "ZCDP", e
print("installed client: OK")
