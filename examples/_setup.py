"""Shared set-up of the examples: the client on sys.path, and an owner and an analyst key.

Every example reads PRIVMAT_URL (default http://localhost:8080) and PRIVMAT_ADMIN_KEY (the key the
service was started with, PRIVMAT_BOOTSTRAP_ADMIN_KEY), creates a fresh owner and analyst, and
works only with them. PRIVMAT_EXAMPLE_QUICK=1 bounds the work (as CI runs them).
"""
from __future__ import annotations

import os
import sys
import urllib.error
import uuid
import warnings
from pathlib import Path

try:
    import privmat  # installed with pip install ./clients/python
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clients" / "python"))
    import privmat

QUICK = os.environ.get("PRIVMAT_EXAMPLE_QUICK") == "1"


def _print_noise_warning(message, category, filename, lineno, file=None, line=None, _default=warnings.showwarning):
    """The client raises each answer's noise warnings as privmat.PrivmatNoiseWarning: print them in line."""
    if issubclass(category, privmat.PrivmatNoiseWarning):
        print(f"  noise warning: {message}")
    else:
        _default(message, category, filename, lineno, file, line)


warnings.showwarning = _print_noise_warning
warnings.simplefilter("always", privmat.PrivmatNoiseWarning)


def noise_dominated(answer) -> list:
    """The answer's NOISE_DOMINATED warnings (quotes, results and free answers carry a ``warnings`` list)."""
    return [w for w in (answer.get("warnings") or []) if w.get("code") == "NOISE_DOMINATED"]


def clients(tag: str):
    """(admin, owner, analyst, analyst subject): the two keys are new, with subjects unique to this run."""
    admin_key = os.environ.get("PRIVMAT_ADMIN_KEY")
    if not admin_key:
        sys.exit("set PRIVMAT_ADMIN_KEY to the service's admin key (and PRIVMAT_URL if not localhost:8080)")
    admin = privmat.Client(key=admin_key)
    run = uuid.uuid4().hex[:6]
    try:
        owner = admin.with_key(admin.create_api_key(f"{tag}-owner-{run}", "OWNER").key)
    except urllib.error.URLError as e:  # not an HTTP answer: nothing listens there (problems are ProblemError)
        sys.exit(f"cannot reach the privmat service at {admin.url} ({getattr(e, 'reason', e)}): start it "
                 "(./mvnw spring-boot:run) or set PRIVMAT_URL to where it listens")
    analyst_subject = f"{tag}-analyst-{run}"
    analyst = admin.with_key(admin.create_api_key(analyst_subject, "ANALYST").key)
    return admin, owner, analyst, analyst_subject
