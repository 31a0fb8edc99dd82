"""The contract's typed request and response classes (generated; see _generated.py)."""
from ._generated import *  # noqa: F401,F403
from ._generated import API_VERSION, OPERATIONS  # noqa: F401
