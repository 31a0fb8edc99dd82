"""privmat: a Python client for the privmat service (differentially private matrix analytics).

    import privmat
    analyst = privmat.Client("http://localhost:8080", key)
    job = analyst.submit(dataset_id, "PCA", "ANALYZE_GAUSS", rho=0.05, k=3)
    components = job.wait().result().components

Requests are generic over the mechanism catalogue (kind, mechanism, budget, params); results and
problems are typed by the classes in :mod:`privmat.models`, generated from the service's contract.
"""
from .client import Client, Job, from_npy, progress_bar, to_npy
from .errors import (BudgetExhausted, Conflict, Forbidden, InvalidData, InvalidParameter, JobFailed,
                     NotFound, PrivmatError, PrivmatNoiseWarning, ProblemError, RateLimited, Unauthenticated)
from . import models

__version__ = "0.1.0.dev0"

__all__ = ["Client", "Job", "models", "progress_bar", "to_npy", "from_npy", "PrivmatError", "ProblemError",
           "BudgetExhausted", "InvalidParameter", "InvalidData", "NotFound", "Unauthenticated", "Forbidden",
           "RateLimited", "Conflict", "JobFailed", "PrivmatNoiseWarning", "__version__"]
