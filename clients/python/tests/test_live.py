"""Tests against a running service: PRIVMAT_URL and PRIVMAT_ADMIN_KEY (an ADMIN key) must be set.

`./mvnw test` runs them (PythonClientTest starts the service on an embedded PostgreSQL); without
the variables they are skipped.
"""
from __future__ import annotations

import os
import sys
import unittest
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import privmat  # noqa: E402
from privmat import models  # noqa: E402

URL = os.environ.get("PRIVMAT_URL")
ADMIN = os.environ.get("PRIVMAT_ADMIN_KEY")

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None


@unittest.skipUnless(URL and ADMIN, "set PRIVMAT_URL and PRIVMAT_ADMIN_KEY to run against a live service")
@unittest.skipIf(np is None, "numpy absent (Debian: python3-numpy)")
class LiveTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        admin = privmat.Client(URL, ADMIN)
        run = uuid.uuid4().hex[:8]
        cls.analyst_subject = "py-analyst-" + run
        cls.owner = admin.with_key(admin.create_api_key("py-owner-" + run, "OWNER").key)
        cls.analyst = admin.with_key(admin.create_api_key(cls.analyst_subject, "ANALYST").key)
        rng = np.random.default_rng(7)
        cls.x = rng.normal(size=(200, 4)) / 4
        ds = cls.owner.create_dataset("py-live", "MATRIX", epsilon=5, delta=1e-6, rowNormBound=1.0)
        cls.dataset = ds.id
        cls.uploaded = cls.owner.upload(ds, cls.x)
        cls.owner.grant(ds, cls.analyst_subject)

    def test_upload_reports_the_shape(self):
        self.assertIsInstance(self.uploaded, models.Dataset)
        self.assertEqual((200, 4, "READY"), (self.uploaded.rows, self.uploaded.cols, self.uploaded.status))

    def test_quote_then_submit_column_sums_typed_and_as_npy(self):
        quote = self.analyst.quote(self.dataset, "COLUMN_SUMS", "GAUSSIAN", rho=0.001)
        self.assertTrue(quote.admissible)
        self.assertGreater(quote.cost.rho, 0)
        self.assertGreater(quote.noise.sigma, 0)
        job = self.analyst.submit(self.dataset, "COLUMN_SUMS", "GAUSSIAN", rho=0.001).wait(timeout=60)
        result = job.result()
        self.assertIsInstance(result, models.ColumnSumsResult)
        self.assertEqual(4, len(result.column_sums))
        sums = job.array()
        self.assertEqual((4,), sums.shape)
        np.testing.assert_allclose(result.column_sums, sums)
        # sigma = sqrt(2)/sqrt(2 rho) * ... : the noise is at most 6 sigma per column with overwhelming probability
        self.assertLess(np.max(np.abs(sums - self.x.clip(-1, 1).sum(axis=0))), 6 * quote.noise.sigma + 1)

    def test_pca_components_are_orthonormal(self):
        job = self.analyst.submit(self.dataset, "PCA", "ANALYZE_GAUSS", rho=0.02, k=2)
        self.assertIn(job.state, ("QUEUED", "RUNNING", "DONE"))
        result = job.wait(timeout=60, progress=False).result()
        self.assertIsInstance(result, models.PcaResult)
        v = np.asarray(result.components)
        self.assertEqual((4, 2), v.shape)
        np.testing.assert_allclose(v.T @ v, np.eye(2), atol=1e-8)

    def test_budget_and_ledger_follow_the_charges(self):
        before = self.analyst.budget(self.dataset)
        job = self.analyst.submit(self.dataset, "COLUMN_SUMS", "GAUSSIAN", rho=0.002).wait(timeout=60,
                                                                                          progress=False)
        after = self.analyst.budget(self.dataset)
        self.assertIsInstance(after, models.BudgetStatus)
        # the exact charge is the job's cost (at most the requested rho: sigma is rounded up to the grid)
        self.assertLessEqual(job.cost.rho, 0.002)
        self.assertGreater(job.cost.rho, 0.0019)
        self.assertAlmostEqual(job.cost.rho, after.spent.tracks.rho - before.spent.tracks.rho, delta=1e-12)
        entries = list(self.analyst.ledger(self.dataset))
        self.assertTrue(entries and all(isinstance(e, models.LedgerEntry) for e in entries))
        self.assertEqual({"RESERVE", "COMMIT"}, {e.type for e in entries} & {"RESERVE", "COMMIT"})

    def test_problems_are_raised_with_their_members(self):
        with self.assertRaises(privmat.InvalidParameter) as ctx:
            self.analyst.quote(self.dataset, "PCA", "ANALYZE_GAUSS", rho=0.05, k=0)
        self.assertEqual("params.k", ctx.exception.parameter)
        self.assertTrue(ctx.exception.allowed_range)
        with self.assertRaises(privmat.BudgetExhausted) as ctx:
            self.analyst.submit(self.dataset, "COLUMN_SUMS", "GAUSSIAN", rho=50)
        e = ctx.exception
        self.assertEqual((409, "ZCDP"), (e.status, e.accounting))
        self.assertGreater(e.requested.rho, e.remaining.rho)
        with self.assertRaises(privmat.NotFound):
            self.analyst.dataset(str(uuid.uuid4()))
        with self.assertRaises(privmat.Unauthenticated):
            privmat.Client(URL, "pm_not_a_key").dataset(self.dataset)

    def test_generic_call_reaches_operations_without_a_helper(self):
        grants = self.owner.call("listGrants", id=self.dataset)
        self.assertEqual([self.analyst_subject], [g.analyst for g in grants])
        seen = [d.id for d in self.analyst.datasets()]
        self.assertIn(self.dataset, seen)

    def test_graph_sketch_answers_cuts_for_free(self):
        n = 1500  # the JL overlay needs enough vertices at these parameters (else 422 graph-too-small)
        g = self.owner.create_dataset("py-graph", "GRAPH", epsilon=10, delta=1e-4, vertices={"count": n})
        self.owner.upload(g, "".join(f"{i},{(i + 1) % n}\n" for i in range(n)))
        self.owner.grant(g, self.analyst_subject)
        job = self.analyst.submit(g.id, "SKETCH", "JL", epsilon=2, delta=1e-6, eta=0.3, nu=0.1).wait(
            timeout=60, progress=False)
        release = job.result().release_id
        spent = self.analyst.budget(g.id).spent.tracks.rho
        answers = self.analyst.cuts(release, [["0", "1", "2"], ["0"]])
        self.assertEqual(2, len(answers.answers))
        for a in answers.answers:
            # a cut weight is non-negative: the interval is clamped at 0, the unbiased estimate is not
            self.assertGreaterEqual(a.lower, 0)
            self.assertLessEqual(a.lower, a.upper)
            self.assertLessEqual(a.estimate, a.upper)
        self.assertEqual(spent, self.analyst.budget(g.id).spent.tracks.rho)


if __name__ == "__main__":
    unittest.main()
