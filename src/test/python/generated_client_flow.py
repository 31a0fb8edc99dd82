"""A whole session through the Python client that openapi-generator generates from openapi.yaml with
its default options (package openapi_client): keys, dataset, upload, grant, quote, submit, poll, a
typed result of each of two kinds, budget, and a problem as an exception.

Run by GeneratedClientsTest: python3 generated_client_flow.py <service URL> <admin key>, with the generated package on
PYTHONPATH. Prints "generated python client: OK" at the end.
"""
import sys
import time
import uuid

import openapi_client
from openapi_client import models
from openapi_client.exceptions import ApiException

url, admin_key = sys.argv[1], sys.argv[2]


def api(key):
    return openapi_client.ApiClient(openapi_client.Configuration(host=url, access_token=key))


def check(condition, what):
    if not condition:
        raise AssertionError(what)


suffix = uuid.uuid4().hex[:8]
keys = openapi_client.APIKeysApi(api(admin_key))
owner = keys.create_api_key(models.CreateApiKeyRequest(name="gen-owner-" + suffix, role="OWNER"))
analyst = keys.create_api_key(models.CreateApiKeyRequest(name="gen-analyst-" + suffix, role="ANALYST"))

datasets = openapi_client.DatasetsApi(api(owner.key))
created = datasets.create_dataset(models.CreateDatasetRequest(
    name="generated-python", kind="MATRIX", row_norm_bound=1.0,
    budget=models.BudgetRequest(epsilon=1, delta=1e-6)))
check(created.status == "EMPTY", created)
rows = "\n".join(f"{0.1 * (i % 7)},{0.05 * (i % 5)},{-0.02 * (i % 3)}" for i in range(200)) + "\n"
ready = datasets.upload_data(created.id, rows, _content_type="text/csv")
check((ready.status, ready.rows, ready.cols) == ("READY", 200, 3), ready)
datasets.grant_access(created.id, models.GrantRequest(analyst=analyst.subject))

queries = openapi_client.QueriesApi(api(analyst.key))
jobs = openapi_client.JobsApi(api(analyst.key))


def run(query, idempotency_key):
    request = models.QueryRequest(query)
    quote = queries.quote(created.id, request)
    check(quote.admissible, quote)
    job = queries.submit(created.id, request, idempotency_key=idempotency_key)
    deadline = time.monotonic() + 60
    while job.state not in ("DONE", "FAILED", "CANCELLED"):
        check(time.monotonic() < deadline, f"job {job.id} still {job.state}")
        time.sleep(0.2)
        job = jobs.get_job(job.id)
    check(job.state == "DONE", job)
    return quote, jobs.get_job_result(job.id).actual_instance


quote, sums = run(models.GaussianQuery(kind="COLUMN_SUMS", mechanism="GAUSSIAN", rho=0.005), "sums-" + suffix)
check(isinstance(sums, models.ColumnSumsResult), type(sums))
check(sums.kind == "COLUMN_SUMS" and len(sums.column_sums) == 3, sums)
print("column sums:", [round(v, 2) for v in sums.column_sums], "σ =", round(quote.noise.sigma, 2))

_, pca = run(models.AnalyzeGaussQuery(kind="PCA", mechanism="ANALYZE_GAUSS", rho=0.005,
                                      params=models.AnalyzeGaussParams(k=2)), "pca-" + suffix)
check(isinstance(pca, models.PcaResult), type(pca))
check(len(pca.components) == 3 and len(pca.components[0]) == 2, pca.components)
print("PCA eigenvalues:", [round(v, 2) for v in pca.eigenvalues])

budget = openapi_client.BudgetApi(api(analyst.key)).get_budget(created.id)
check(budget.accounting == "ZCDP" and budget.spent.tracks.rho > 0, budget)

try:
    queries.submit(created.id, models.QueryRequest(
        models.GaussianQuery(kind="COLUMN_SUMS", mechanism="GAUSSIAN", rho=50)))
    raise AssertionError("a query beyond the budget was admitted")
except ApiException as e:
    check(e.status == 409 and "budget-exhausted" in e.body, e)
print("generated python client: OK")
