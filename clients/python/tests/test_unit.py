"""Unit tests of the client: no service needed (HTTP answered by a fake opener)."""
from __future__ import annotations

import io
import json
import struct
import sys
import unittest
import urllib.error
from email.message import Message
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import privmat  # noqa: E402
from privmat import models  # noqa: E402
from privmat._model import convert  # noqa: E402

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None


class _Answer(io.BytesIO):
    def __init__(self, status, body, ctype="application/json"):
        super().__init__(body)
        self.status = status
        self.headers = {"Content-Type": ctype}


class FakeService:
    """Records requests; answers from a queue of (status, body-or-dict, content type)."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.requests = []

    def __call__(self, req, timeout=None):
        self.requests.append(req)
        status, body, ctype = self.answers.pop(0)
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        if status >= 400:
            headers = Message()
            headers["Content-Type"] = ctype
            headers["Retry-After"] = "3"
            raise urllib.error.HTTPError(req.full_url, status, "err", headers, io.BytesIO(raw))
        return _Answer(status, raw, ctype)


JOB = {"id": "j1", "datasetId": "d1", "kind": "PCA", "mechanism": "ANALYZE_GAUSS", "state": "QUEUED",
       "progress": 0.0, "cost": {"rho": 0.05}}


class ModelTest(unittest.TestCase):
    def test_union_picks_the_member_its_discriminator_names(self):
        r = convert(("union", "QueryResult"), {"kind": "PCA", "components": [[1.0, 0.0]], "eigenvalues": [2.5],
                                               "loss": {"charged": {"notion": "zCDP", "rho": 0.1}}})
        self.assertIsInstance(r, models.PcaResult)
        self.assertEqual([2.5], r.eigenvalues)
        self.assertIsInstance(r.loss.charged, models.PrivacyLoss)
        self.assertEqual(0.1, r.loss.charged.rho)

    def test_unknown_kinds_and_members_survive(self):
        newer = {"kind": "SOMETHING_NEW", "answer": [1, 2]}
        self.assertEqual(newer, convert(("union", "QueryResult"), newer))
        job = models.Job.from_dict({**JOB, "futureMember": "sampling"})
        self.assertEqual("sampling", job.extra["futureMember"])
        self.assertEqual("sampling", job.get("futureMember"))
        self.assertEqual({**JOB, "futureMember": "sampling"}, job.to_dict())

    def test_to_dict_uses_json_names_and_drops_unset(self):
        req = models.CreateDatasetRequest(name="x", kind="MATRIX", row_norm_bound=1.0,
                                          budget=models.BudgetRequest(epsilon=1.0, delta=1e-6))
        self.assertEqual({"name": "x", "kind": "MATRIX", "rowNormBound": 1.0,
                          "budget": {"epsilon": 1.0, "delta": 1e-6}}, req.to_dict())

    def test_every_operation_of_the_table_has_a_method_and_path(self):
        ops = models.OPERATIONS
        self.assertIn("submit", ops)
        self.assertEqual(("POST", "/v1/datasets/{datasetId}/queries"), (ops["submit"].method, ops["submit"].path))
        self.assertIn(("Idempotency-Key", "header"), ops["submit"].parameters)
        self.assertIn("application/x-npy", ops["getJobResult"].response_types)


class GeneratorTest(unittest.TestCase):
    def test_snake_case(self):
        import generate
        self.assertEqual("row_norm_bound", generate.snake("rowNormBound"))
        self.assertEqual("l2_sensitivity", generate.snake("l2Sensitivity"))
        self.assertEqual("idempotency_key", generate.snake("Idempotency-Key"))
        self.assertEqual("from_", generate.snake("from"))

    def test_checked_in_module_equals_a_regeneration_from_openapi_yaml(self):
        try:
            import yaml  # noqa: F401
        except ImportError:
            self.skipTest("PyYAML (python3-yaml) absent: the JUnit PythonClientTest checks against the served JSON")
        import generate
        spec = Path(__file__).resolve().parents[3] / "openapi.yaml"
        if not spec.exists():
            self.skipTest("not inside the repository")
        self.assertEqual(generate.OUTPUT.read_text(encoding="utf-8"),
                         generate.Generator(generate.load_spec(str(spec))).render(),
                         "run python3 tools/generate.py ../../openapi.yaml")


class ClientTest(unittest.TestCase):
    def client(self, *answers):
        fake = FakeService(*answers)
        return privmat.Client("http://svc:1/", "pm_key", opener=fake), fake

    def test_quote_sends_kind_mechanism_budget_and_params(self):
        c, fake = self.client((200, {"admissible": True, "cost": {"rho": 0.05, "delta": 0}}, "application/json"))
        q = c.quote("d1", "PCA", "ANALYZE_GAUSS", rho=0.05, k=3)
        req = fake.requests[0]
        self.assertEqual("http://svc:1/v1/datasets/d1/queries/quote", req.full_url)
        self.assertEqual("Bearer pm_key", req.get_header("Authorization"))
        self.assertEqual({"kind": "PCA", "mechanism": "ANALYZE_GAUSS", "rho": 0.05, "params": {"k": 3}},
                         json.loads(req.data))
        self.assertIsInstance(q, models.Quote)
        self.assertTrue(q.admissible)
        self.assertEqual(0.05, q.cost.rho)

    def test_noise_warnings_are_raised_as_privmat_noise_warnings(self):
        w = {"code": "NOISE_DOMINATED", "quantity": "singularValues", "noiseLevel": 2119.0, "level": 0.95,
             "comparedWith": 100.0, "detail": "whatever the data, this answer is noise."}
        c, _ = self.client((200, {"admissible": True, "warnings": [w]}, "application/json"),
                           (200, {"admissible": True, "warnings": []}, "application/json"))
        with self.assertWarns(privmat.PrivmatNoiseWarning) as caught:
            q = c.quote("d1", "LOW_RANK", "RANDOMIZED_RESPONSE", rho=0.05, k=1)
        self.assertEqual("NOISE_DOMINATED", caught.warning.code)
        self.assertEqual(2119.0, caught.warning.noise_level)
        self.assertIn("whatever the data", str(caught.warning))
        self.assertEqual("singularValues", q.warnings[0].quantity)
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            c.quote("d1", "PCA", "ANALYZE_GAUSS", rho=0.05, k=1)  # an empty list warns nothing

    def test_submit_passes_the_idempotency_key_and_wait_polls_until_done(self):
        done = {**JOB, "state": "DONE", "progress": 1.0}
        c, fake = self.client((202, JOB, "application/json"), (200, {**JOB, "state": "RUNNING", "progress": 0.5},
                                                               "application/json"), (200, done, "application/json"))
        job = c.submit("d1", "PCA", "ANALYZE_GAUSS", rho=0.05, idempotency_key="k-1", k=2)
        self.assertEqual("k-1", fake.requests[0].get_header("Idempotency-key"))
        err = io.StringIO()
        job.wait(timeout=10, progress=True, poll=0.001, stream=err)
        self.assertEqual("DONE", job.state)
        lines = err.getvalue()
        self.assertIn(" 50% RUNNING PCA/ANALYZE_GAUSS", lines)
        self.assertIn("100% DONE", lines)
        self.assertEqual("http://svc:1/v1/jobs/j1", fake.requests[2].full_url)

    def test_submit_with_reuse_sends_it_and_takes_the_earlier_done_job(self):
        done = {**JOB, "state": "DONE", "progress": 1.0}
        c, fake = self.client((200, done, "application/json"))
        job = c.submit("d1", "PCA", "ANALYZE_GAUSS", rho=0.05, reuse=True, k=2)
        self.assertEqual({"kind": "PCA", "mechanism": "ANALYZE_GAUSS", "rho": 0.05, "params": {"k": 2},
                          "reuse": True}, json.loads(fake.requests[0].data))
        self.assertEqual("DONE", job.state)
        c, fake = self.client((202, JOB, "application/json"))
        c.submit("d1", "PCA", "ANALYZE_GAUSS", rho=0.05)
        self.assertNotIn("reuse", json.loads(fake.requests[0].data))

    def test_wait_raises_job_failed_with_the_error(self):
        failed = {**JOB, "state": "FAILED", "error": {"type": "sampler-failure", "detail": "x"}}
        c, _ = self.client((202, failed, "application/json"))
        job = c.submit("d1", "PCA", "ANALYZE_GAUSS", rho=0.05)
        with self.assertRaises(privmat.JobFailed) as ctx:
            job.wait(progress=False)
        self.assertEqual("FAILED", ctx.exception.job.state)

    def test_budget_exhausted_is_raised_with_its_members(self):
        problem = {"type": "https://privmat.io/problems/budget-exhausted", "title": "Budget exhausted",
                   "status": 409, "detail": "cannot pay", "accounting": "ZCDP",
                   "requested": {"rho": 0.5}, "remaining": {"rho": 0.01}, "newMember": 7}
        c, _ = self.client((409, problem, "application/problem+json"))
        with self.assertRaises(privmat.BudgetExhausted) as ctx:
            c.submit("d1", "COLUMN_SUMS", "GAUSSIAN", rho=0.5)
        e = ctx.exception
        self.assertEqual((409, "budget-exhausted", "cannot pay", "ZCDP"), (e.status, e.short_type, e.detail,
                                                                           e.accounting))
        self.assertEqual(0.5, e.requested.rho)
        self.assertEqual(0.01, e.remaining.rho)
        self.assertEqual(7, e.newMember)
        self.assertIsNone(e.line)

    def test_invalid_parameter_names_it_and_rate_limit_keeps_retry_after(self):
        bad = {"type": "https://privmat.io/problems/invalid-parameter", "status": 400, "title": "t",
               "detail": "params.k must be ...", "parameter": "params.k", "allowedRange": "[1, 200]"}
        c, _ = self.client((400, bad, "application/problem+json"),
                           (429, {"type": "https://privmat.io/problems/rate-limited", "status": 429},
                            "application/problem+json"), (404, b"", "text/plain"))
        with self.assertRaises(privmat.InvalidParameter) as ctx:
            c.quote("d1", "PCA", "ANALYZE_GAUSS", rho=1, k=0)
        self.assertEqual(("params.k", "[1, 200]"), (ctx.exception.parameter, ctx.exception.allowed_range))
        with self.assertRaises(privmat.RateLimited) as ctx:
            c.budget("d1")
        self.assertEqual("3", ctx.exception.retry_after)
        with self.assertRaises(privmat.NotFound):
            c.dataset("nope")

    def test_generic_call_fills_path_query_and_rejects_unknown_parameters(self):
        c, fake = self.client((200, {"entries": [], "next": None}, "application/json"))
        page = c.call("listLedgerEntries", datasetId="d 1", after=5, limit=10)
        self.assertEqual("http://svc:1/v1/datasets/d%201/ledger?after=5&limit=10", fake.requests[0].full_url)
        self.assertIsInstance(page, models.LedgerPage)
        with self.assertRaises(TypeError):
            c.call("getBudget", datasetId="d1", bogus=1)
        with self.assertRaises(TypeError):
            c.call("getBudget")

    def test_transparency_pages_and_asks_for_yaml(self):
        record = {"datasetId": "d1", "releases": [{"entry": 4, "mechanism": "GAUSSIAN"}], "total": 1, "next": None}
        c, fake = self.client((200, record, "application/json"))
        t = c.transparency("d1", after=3, limit=10)
        self.assertEqual("http://svc:1/v1/datasets/d1/transparency?after=3&limit=10", fake.requests[0].full_url)
        self.assertIsInstance(t, models.TransparencyRecord)
        self.assertEqual(1, t.total)
        c, fake = self.client((200, b"accounting: ZCDP\n", "application/yaml"))
        self.assertEqual("accounting: ZCDP\n", c.transparency_registry_yaml("d1"))
        self.assertEqual("application/yaml", fake.requests[0].get_header("Accept"))

    def test_verify_ledger_passes_the_exported_head_and_types_the_verdict(self):
        verdict = {"ok": False, "entries": 6, "head": "ab" * 32, "headEntry": 12, "firstBadEntry": 9,
                   "reason": "entry 9: its content does not match its hash: the entry was edited",
                   "totalsChecked": True}
        c, fake = self.client((200, verdict, "application/json"))
        v = c.verify_ledger("d1", head="cd" * 32)
        self.assertEqual("http://svc:1/v1/datasets/d1/ledger/verify?head=" + "cd" * 32, fake.requests[0].full_url)
        self.assertIsInstance(v, models.LedgerVerification)
        self.assertEqual((False, 9, 12), (v.ok, v.first_bad_entry, v.head_entry))
        c, fake = self.client((200, {"head": "ab" * 32, "headEntry": 12}, "application/json"))
        self.assertEqual("ab" * 32, c.ledger_head("d1").head)
        self.assertEqual("http://svc:1/v1/datasets/d1/ledger/head", fake.requests[0].full_url)

    def test_nested_lists_are_written_as_npy_by_the_standard_library(self):
        data = privmat.client._npy_of_lists([[0.5, 1], [2, -3.25]])
        self.assertEqual(b"\x93NUMPY\x01\x00", data[:8])
        n = struct.unpack("<H", data[8:10])[0]
        self.assertEqual(0, (10 + n) % 64, "the data starts at a multiple of 64 bytes")
        self.assertEqual("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", data[10:10 + n].decode().strip())
        self.assertEqual((0.5, 1.0, 2.0, -3.25), struct.unpack("<4d", data[10 + n:]))
        self.assertIn("'shape': (3,)", privmat.client._npy_of_lists([1, 2, 3])[10:].decode("latin-1"))
        with self.assertRaises(ValueError):
            privmat.client._npy_of_lists([[1, 2], [3]])
        if np is not None:
            np.testing.assert_array_equal(np.asarray([[0.5, 1], [2, -3.25]]), np.load(io.BytesIO(data)))

    @unittest.skipIf(np is None, "numpy absent (Debian: python3-numpy)")
    def test_arrays_go_up_as_npy_and_come_back(self):
        x = np.arange(6, dtype=np.float64).reshape(2, 3) / 7
        buf = io.BytesIO()
        np.save(buf, x)
        c, fake = self.client((200, {"id": "d1", "status": "READY"}, "application/json"),
                              (200, {**JOB, "state": "DONE"}, "application/json"),
                              (200, buf.getvalue(), "application/x-npy"))
        c.upload("d1", x)
        req = fake.requests[0]
        self.assertEqual(("PUT", "application/x-npy"), (req.get_method(), req.get_header("Content-type")))
        np.testing.assert_array_equal(x, privmat.from_npy(req.data))
        np.testing.assert_array_equal(x, c.job("j1").array())
        self.assertEqual("application/x-npy", fake.requests[2].get_header("Accept"))

    def test_upload_of_a_csv_string_and_progress_bar_width(self):
        c, fake = self.client((200, {"id": "d1"}, "application/json"))
        c.upload("d1", "a,b\n1,2\n", header=True)
        self.assertEqual("text/csv", fake.requests[0].get_header("Content-type"))
        self.assertTrue(fake.requests[0].full_url.endswith("/data?header=true"))
        bar = privmat.progress_bar(models.Job.from_dict({**JOB, "progress": 0.25}), width=8)
        self.assertTrue(bar.startswith("[##......]  25% QUEUED"), bar)


if __name__ == "__main__":
    unittest.main()
