"""RFC 9457 problem details raised as exceptions, with their members as attributes."""
from __future__ import annotations

from typing import Any, Optional

PROBLEM_BASE = "https://privmat.io/problems/"


class PrivmatError(Exception):
    """Base of the client's errors."""


class ProblemError(PrivmatError):
    """A problem-details answer of the service.

    ``type``, ``title``, ``status`` and ``detail`` are always set (``type`` may be
    ``about:blank``); the extension members the problem carries (``parameter``, ``allowed_range``,
    ``requested``, ``remaining``, ``accounting``, ``line``, ``column``, ...) are attributes in
    snake case, and all members are in ``problem`` under their JSON names.
    """

    def __init__(self, status: int, problem: dict[str, Any], retry_after: Optional[str] = None) -> None:
        self.problem = dict(problem)
        self.status = int(problem.get("status", status))
        self.type = problem.get("type", "about:blank")
        self.title = problem.get("title", "")
        self.detail = problem.get("detail", "")
        self.retry_after = retry_after
        from ._model import convert
        from .models import Problem

        typed = Problem.from_dict(self.problem)
        for py, js, spec in Problem._FIELDS:
            if py not in ("type", "title", "status", "detail"):
                setattr(self, py, convert(spec, self.problem.get(js)))
        for name, value in typed.extra.items():
            setattr(self, name, value)
        super().__init__(f"{self.status} {self.short_type}: {self.detail or self.title}")

    @property
    def short_type(self) -> str:
        """The last segment of the type URI, e.g. ``budget-exhausted``."""
        return self.type[len(PROBLEM_BASE):] if self.type.startswith(PROBLEM_BASE) else self.type

    def __getattr__(self, name: str) -> Any:  # members this client version does not know: None
        if name.startswith("__"):
            raise AttributeError(name)
        return None


class BudgetExhausted(ProblemError):
    """409 budget-exhausted: ``requested`` and ``remaining`` are the amounts on the dataset's tracks."""


class InvalidParameter(ProblemError):
    """400 invalid-parameter: ``parameter`` names it and ``allowed_range`` says what it accepts."""


class InvalidData(ProblemError):
    """422 invalid-data: ``line`` and ``column`` (or ``byte_offset``) locate the fault in the upload."""


class NotFound(ProblemError):
    """404: the resource does not exist, or the caller may not see it."""


class Unauthenticated(ProblemError):
    """401: no or an unknown API key."""


class Forbidden(ProblemError):
    """403: the key's role may not do this."""


class RateLimited(ProblemError):
    """429: ``retry_after`` seconds (a string, as sent)."""


class Conflict(ProblemError):
    """Another 409."""


class JobFailed(PrivmatError):
    """A job ended FAILED or CANCELLED; ``job`` is its last state, ``error`` its JobError."""

    def __init__(self, job: Any) -> None:
        self.job = job
        self.error = job.error
        reason = job.error.to_dict() if job.error is not None else {}
        super().__init__(f"job {job.id} ended {job.state}: {reason}")


_BY_TYPE = {
    "budget-exhausted": BudgetExhausted,
    "invalid-parameter": InvalidParameter,
    "invalid-data": InvalidData,
    "rate-limited": RateLimited,
    "unauthenticated": Unauthenticated,
    "forbidden": Forbidden,
}
_BY_STATUS = {404: NotFound, 401: Unauthenticated, 403: Forbidden, 429: RateLimited, 409: Conflict,
              400: InvalidParameter, 422: InvalidData}


def problem_error(status: int, problem: dict[str, Any], retry_after: Optional[str] = None) -> ProblemError:
    """The most specific exception class for a problem."""
    t = str(problem.get("type", ""))
    short = t[len(PROBLEM_BASE):] if t.startswith(PROBLEM_BASE) else t
    cls = _BY_TYPE.get(short) or _BY_STATUS.get(status, ProblemError)
    if short and short not in _BY_TYPE and status in (400, 422):
        cls = ProblemError  # e.g. malformed-request: not about one parameter
    return cls(status, problem, retry_after)


class PrivmatNoiseWarning(UserWarning):
    """An answer, or a quoted one, is mostly noise: the service's ``warnings`` list
    (docs/accuracy/warnings.md) raised with :func:`warnings.warn`. ``code`` (``NOISE_DOMINATED`` or
    ``COMPONENTS_IN_NOISE``), ``quantity``, ``noise_level``, ``compared_with`` and ``detail`` are
    attributes; ``warning`` is the whole member as the service sent it.

    Silence them with ``warnings.simplefilter("ignore", privmat.PrivmatNoiseWarning)``, or turn them into
    errors with ``"error"``.
    """

    def __init__(self, warning: Any, operation: str = "") -> None:
        get = warning.get if hasattr(warning, "get") else (lambda k, d=None: d)
        self.warning = warning
        self.code = get("code")
        self.quantity = get("quantity")
        self.noise_level = get("noiseLevel")
        self.compared_with = get("comparedWith")
        self.detail = get("detail", "")
        self.operation = operation
        where = f" ({operation})" if operation else ""
        super().__init__(f"{self.code} {self.quantity}{where}: {self.detail}")
