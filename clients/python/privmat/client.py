"""The hand-written layer: a client that takes and gives arrays (numpy, when installed) and typed results."""
from __future__ import annotations

import io
import json
import os
import struct
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from pathlib import Path
from typing import Any, Iterator, Optional, Union

from . import models
from ._model import Model, convert, parse_union, to_json
from .errors import JobFailed, PrivmatError, PrivmatNoiseWarning, problem_error

NPY = "application/x-npy"
_BY_SUFFIX = {".csv": "text/csv", ".tsv": "text/tab-separated-values", ".tab": "text/tab-separated-values",
              ".mtx": "application/x-matrix-market", ".mm": "application/x-matrix-market", ".npy": NPY}
_TERMINAL = ("DONE", "FAILED", "CANCELLED")


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise PrivmatError("numpy is needed for this (pip install 'privmat[numpy]', or Debian's python3-numpy); "
                           "without it, upload nested lists, CSV or files and read results as JSON") from e
    return numpy


def to_npy(array: Any) -> bytes:
    """The .npy bytes of an array-like (float64 unless it is an integer array). Without numpy, nested
    lists or tuples of numbers (one or two levels, rectangular) are written as float64 directly."""
    try:
        import numpy as np
    except ImportError:
        if isinstance(array, (list, tuple)):
            return _npy_of_lists(array)
        raise
    a = np.asarray(array)
    if a.dtype.kind not in "iuf":
        a = a.astype(np.float64)
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(a), allow_pickle=False)
    return buf.getvalue()


def _npy_of_lists(array: Union[list, tuple]) -> bytes:
    """.npy version 1.0 of a 1-D or rectangular 2-D sequence of numbers, little-endian float64, C order."""
    two_d = len(array) > 0 and isinstance(array[0], (list, tuple))
    rows = [list(r) for r in array] if two_d else [list(array)]
    width = len(rows[0]) if rows else 0
    if any(len(r) != width for r in rows):
        raise ValueError("rows of different lengths: an array must be rectangular")
    values = [float(v) for r in rows for v in r]
    shape = f"({len(rows)}, {width})" if two_d else f"({width},)"
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': %s, }" % shape
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"  # the data starts at a multiple of 64
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin-1") \
        + struct.pack(f"<{len(values)}d", *values)


def from_npy(data: bytes) -> Any:
    return _numpy().load(io.BytesIO(data), allow_pickle=False)


def _id(x: Any) -> str:
    """An id from a string or from a model/Job that has one."""
    if isinstance(x, str):
        return x
    value = getattr(x, "id", None)
    if value is None:
        raise TypeError(f"not an id or a resource with one: {x!r}")
    return str(value)


class Client:
    """A privmat service at ``url`` acting with one API key.

    ``url`` and ``key`` default to the environment variables ``PRIVMAT_URL`` and
    ``PRIVMAT_API_KEY``. Every method raises :class:`privmat.ProblemError` (or a subclass such as
    :class:`privmat.BudgetExhausted`) when the service answers with a problem.
    """

    def __init__(self, url: Optional[str] = None, key: Optional[str] = None, timeout: float = 120.0,
                 opener: Any = None) -> None:
        self.url = (url or os.environ.get("PRIVMAT_URL") or "http://localhost:8080").rstrip("/")
        self.key = key if key is not None else os.environ.get("PRIVMAT_API_KEY")
        self.timeout = timeout
        self._open = opener or urllib.request.urlopen

    def with_key(self, key: str) -> "Client":
        """The same service, acting with another key."""
        return Client(self.url, key, self.timeout, self._open)

    # --- generic layer ---------------------------------------------------------------------------
    def request(self, method: str, path: str, *, query: Optional[dict] = None, body: Any = None,
                content_type: Optional[str] = None, accept: str = "application/json",
                headers: Optional[dict] = None) -> tuple[int, str, bytes]:
        """One HTTP exchange; raises the problem as an exception on 4xx/5xx. Returns (status, type, body)."""
        url = self.url + path
        if query:
            q = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in query.items() if v is not None}
            if q:
                url += "?" + urllib.parse.urlencode(q)
        data = None
        h = {"Accept": accept}
        if self.key:
            h["Authorization"] = "Bearer " + self.key
        if body is not None:
            if isinstance(body, (bytes, bytearray)):
                data = bytes(body)
                h["Content-Type"] = content_type or "application/octet-stream"
            else:
                data = json.dumps(to_json(body)).encode("utf-8")
                h["Content-Type"] = content_type or "application/json"
        h.update(headers or {})
        req = urllib.request.Request(url, data=data, method=method, headers=h)
        try:
            with self._open(req, timeout=self.timeout) as r:
                return r.status, r.headers.get("Content-Type", ""), r.read()
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                problem = json.loads(raw.decode("utf-8")) if raw else {}
            except ValueError:
                problem = {}
            if not isinstance(problem, dict):
                problem = {}
            problem.setdefault("status", e.code)
            problem.setdefault("detail", raw.decode("utf-8", "replace")[:500] if raw else str(e.reason))
            raise problem_error(e.code, problem, e.headers.get("Retry-After")) from None

    def call(self, operation_id: str, body: Any = None, *, content_type: Optional[str] = None,
             accept: str = "application/json", **params: Any) -> Any:
        """Calls any operation of the contract by its operationId, its parameters as keywords.

        Path, query and header parameters are matched by name (``datasetId=...``,
        ``Idempotency_Key=...`` for ``Idempotency-Key``); the JSON answer is converted to the
        contract's typed model. With ``accept`` other than JSON the raw bytes are returned.
        """
        op = models.OPERATIONS[operation_id]
        path, query, headers = op.path, {}, {}
        for name, where in op.parameters:
            value = params.pop(name, params.pop(name.replace("-", "_"), None))
            if value is None:
                if where == "path":
                    raise TypeError(f"{operation_id} needs {name}")
                continue
            if where == "path":
                path = path.replace("{" + name + "}", urllib.parse.quote(_id(value), safe=""))
            elif where == "query":
                query[name] = value
            else:
                headers[name] = str(value)
        if params:
            raise TypeError(f"{operation_id} takes no parameter {', '.join(params)}")
        status, ctype, raw = self.request(op.method, path, query=query, body=body, content_type=content_type,
                                          accept=accept, headers=headers)
        if accept != "application/json":
            return raw
        if not raw:
            return None
        answer = convert(op.response, json.loads(raw.decode("utf-8")))
        warn_noise(answer, operation_id)
        return answer

    # --- keys --------------------------------------------------------------------------------
    def create_api_key(self, name: str, role: str, subject: Optional[str] = None) -> models.CreatedApiKey:
        """ADMIN: a new key; its secret (``.key``) is shown only in this answer."""
        return self.call("createApiKey", models.CreateApiKeyRequest(name=name, role=role, subject=subject))

    # --- datasets ----------------------------------------------------------------------------
    def create_dataset(self, name: str, kind: str = "MATRIX", *, epsilon: Optional[float] = None,
                       delta: Optional[float] = None, budget: Optional[dict] = None, **fields: Any) -> models.Dataset:
        """OWNER: a dataset with its budget; other members of CreateDatasetRequest by their JSON names
        (``rowNormBound=1.0``, ``neighbouring="ADD_REMOVE"``, ``vertices={"count": 100}``, ...)."""
        b = dict(budget or {})
        if epsilon is not None:
            b["epsilon"] = epsilon
        if delta is not None:
            b["delta"] = delta
        return self.call("createDataset", {"name": name, "kind": kind, "budget": b, **fields})

    def dataset(self, dataset: Any) -> models.Dataset:
        return self.call("getDataset", id=dataset)

    def datasets(self, page_size: int = 100) -> Iterator[models.Dataset]:
        """Every dataset the key may see, page by page."""
        offset = 0
        while True:
            page = self.call("listDatasets", offset=offset, limit=page_size)
            yield from page.items or []
            offset += len(page.items or [])
            if not page.items or (page.total is not None and offset >= page.total):
                return

    def delete_dataset(self, dataset: Any) -> None:
        self.call("deleteDataset", id=dataset)

    def upload(self, dataset: Any, data: Any, *, content_type: Optional[str] = None,
               header: Optional[bool] = None) -> models.Dataset:
        """OWNER: the dataset's data, once. ``data`` is a numpy array (or nested lists; sent as .npy),
        a path to a .csv/.tsv/.mtx/.npy file, bytes with ``content_type``, or a CSV string."""
        body, ctype = self._payload(data, content_type)
        return self.call("uploadData", body, content_type=ctype, id=dataset, header=header)

    def append(self, stream: Any, rows: Any, *, content_type: Optional[str] = None,
               event_time: Optional[str] = None) -> models.AppendResult:
        """OWNER: a batch of rows (or edge events) appended to a STREAM."""
        body, ctype = self._payload(rows, content_type)
        return self.call("appendRows", body, content_type=ctype, id=stream, eventTime=event_time)

    def grant(self, dataset: Any, analyst: str) -> models.Grant:
        return self.call("grantAccess", {"analyst": analyst}, id=dataset)

    def budget(self, dataset: Any) -> models.BudgetStatus:
        return self.call("getBudget", datasetId=dataset)

    def ledger(self, dataset: Any, page_size: int = 500) -> Iterator[models.LedgerEntry]:
        """The dataset's ledger entries the key may see, oldest first, following the keyset pages."""
        after = None
        while True:
            page = self.call("listLedgerEntries", datasetId=dataset, after=after, limit=page_size)
            yield from page.entries or []
            after = page.next
            if not page.entries or after is None:
                return

    def verify_ledger(self, dataset: Any, head: Optional[str] = None) -> models.LedgerVerification:
        """OWNER or ADMIN: the ledger's hash chain and totals checked; ``head``, a head exported earlier,
        must still be in the chain."""
        return self.call("verifyLedger", datasetId=dataset, head=head)

    def ledger_head(self, dataset: Any) -> models.LedgerHead:
        """OWNER or ADMIN: the last entry's hash, to keep outside the service and verify against later."""
        return self.call("getLedgerHead", datasetId=dataset)

    def transparency(self, dataset: Any, after: Optional[int] = None,
                     limit: int = 100) -> models.TransparencyRecord:
        """One page of the dataset's transparency record (every charged release and the totals); pass the
        page's ``next`` as ``after`` for the next one."""
        return self.call("getTransparencyRecord", datasetId=dataset, after=after, limit=limit)

    def transparency_registry_yaml(self, dataset: Any, after: Optional[int] = None, limit: int = 100) -> str:
        """The same page as the DP Deployments Registry's fields, in YAML (text)."""
        q = {"after": after, "limit": limit}
        path = "/v1/datasets/" + urllib.parse.quote(str(dataset), safe="") + "/transparency"
        return self.request("GET", path, query=q, accept="application/yaml")[2].decode("utf-8")

    # --- queries -----------------------------------------------------------------------------
    @staticmethod
    def query(kind: str, mechanism: str, *, rho: Optional[float] = None, epsilon: Optional[float] = None,
              delta: Optional[float] = None, **params: Any) -> dict:
        """The request body of a query: kind, mechanism, budget and params (any the catalogue defines)."""
        q: dict[str, Any] = {"kind": kind, "mechanism": mechanism}
        for name, value in (("rho", rho), ("epsilon", epsilon), ("delta", delta)):
            if value is not None:
                q[name] = value
        if params:
            q["params"] = params
        return q

    def quote(self, dataset: Any, kind: str, mechanism: str, **budget_and_params: Any) -> models.Quote:
        """What the query would cost and the budget before and after it; charges nothing."""
        return self.call("quote", self.query(kind, mechanism, **budget_and_params), datasetId=dataset)

    def inverse_quote(self, dataset: Any, kind: str, mechanism: str, *, metric: str, value: float,
                      quantity: Optional[str] = None, level: Optional[float] = 0.95, delta: Optional[float] = None,
                      **params: Any) -> models.InverseQuote:
        """The smallest budget at which the quote's ``metric`` error of ``quantity`` (at ``level``; None for
        an RMS figure) is at most ``value``: ``.requested.budget`` holds the fields to submit with, and
        ``.cheapest`` names the mechanism of the kind needing least. Charges nothing."""
        target = {"metric": metric, "value": value}
        if quantity is not None:
            target["quantity"] = quantity
        if level is not None:
            target["level"] = level
        return self.call("inverseQuote", {"query": self.query(kind, mechanism, delta=delta, **params),
                                          "target": target}, datasetId=dataset)

    def dry_run(self, dataset: Any, kind: str, mechanism: str, *, stand_in_size: Optional[int] = None,
                **budget_and_params: Any) -> models.DryRun:
        """The query run on synthetic stand-in data made from the dataset's public facts only (``.result`` is
        the result document, ``.stand_in`` says what the stand-in is): the shape and noise of an answer
        before paying. Charges nothing; the dataset's rows are never read."""
        return self.call("dryRun", self.query(kind, mechanism, **budget_and_params), datasetId=dataset,
                         standInSize=stand_in_size)

    def submit(self, dataset: Any, kind: str, mechanism: str, *, idempotency_key: Optional[str] = None,
               reuse: bool = False, **budget_and_params: Any) -> "Job":
        """Reserves the cost and enqueues the query; returns its :class:`Job` (``job.wait()``). With
        ``reuse=True``, an earlier DONE job of the same plan on the same data version that this key may see
        answers instead, charging nothing (the service's 200: the returned job is that earlier, DONE job)."""
        body = self.query(kind, mechanism, **budget_and_params)
        if reuse:
            body["reuse"] = True
        job = self.call("submit", body, datasetId=dataset, Idempotency_Key=idempotency_key)
        return Job(self, job)

    def job(self, job: Any) -> "Job":
        return Job(self, self.call("getJob", id=job))

    # --- releases ----------------------------------------------------------------------------
    def cuts(self, release: Any, sets: list) -> models.Answers:
        """Free cut queries on a graph sketch: one answer (estimate, lower, upper) per vertex set."""
        return self.call("cutWeights", {"sets": [list(map(str, s)) for s in sets]}, id=release)

    def directional_variance(self, release: Any, vectors: Any) -> models.Answers:
        """Free directional variances ‖Xv‖² on a covariance-type release."""
        return self.call("directionalVariances", {"vectors": to_json(vectors)}, id=release)

    # --- helpers -----------------------------------------------------------------------------
    @staticmethod
    def _payload(data: Any, content_type: Optional[str]) -> tuple[bytes, str]:
        if isinstance(data, (bytes, bytearray)):
            if not content_type:
                raise TypeError("bytes need a content_type")
            return bytes(data), content_type
        if isinstance(data, str) and content_type is None and "\n" in data:
            return data.encode("utf-8"), "text/csv"
        if isinstance(data, str) and content_type:
            return data.encode("utf-8"), content_type
        if isinstance(data, (str, Path)):
            p = Path(data)
            ctype = content_type or _BY_SUFFIX.get(p.suffix.lower())
            if not ctype:
                raise ValueError(f"cannot tell the format of {p}; pass content_type")
            return p.read_bytes(), ctype
        return to_npy(data), NPY


class Job:
    """A submitted query. Attributes of the contract's Job model are readable here (``state``,
    ``progress``, ``cost``, ``loss``, ...); :meth:`refresh` fetches the current state."""

    def __init__(self, client: Client, model: models.Job) -> None:
        self.client = client
        self.model = model

    def __getattr__(self, name: str) -> Any:
        if name in ("client", "model"):
            raise AttributeError(name)
        return getattr(self.model, name)

    def __repr__(self) -> str:
        return f"Job(id={self.model.id!r}, kind={self.model.kind!r}, mechanism={self.model.mechanism!r}, " \
               f"state={self.model.state!r}, progress={self.model.progress!r})"

    @property
    def done(self) -> bool:
        return self.model.state in _TERMINAL

    def refresh(self) -> "Job":
        self.model = self.client.call("getJob", id=self.model.id)
        return self

    def cancel(self) -> "Job":
        self.model = self.client.call("cancelJob", id=self.model.id)
        return self

    def wait(self, timeout: Optional[float] = None, *, progress: Optional[bool] = None,
             poll: float = 0.1, stream: Any = None) -> "Job":
        """Polls until the job is DONE (returns it), FAILED or CANCELLED (raises :class:`JobFailed`),
        or ``timeout`` seconds pass (TimeoutError). Draws a progress bar on stderr when it is a terminal
        (``progress=True`` forces it, ``False`` hides it)."""
        out = stream or sys.stderr
        show = progress if progress is not None else bool(getattr(out, "isatty", lambda: False)())
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = poll
        while True:
            if show:
                out.write("\r" + progress_bar(self.model))
                out.flush()
            if self.done:
                break
            if deadline is not None and time.monotonic() > deadline:
                if show:
                    out.write("\n")
                raise TimeoutError(f"job {self.model.id} still {self.model.state} after {timeout} s")
            time.sleep(delay)
            delay = min(delay * 1.5, 2.0)
            self.refresh()
        if show:
            out.write("\n")
            out.flush()
        if self.model.state != "DONE":
            raise JobFailed(self.model)
        return self

    def result(self) -> Any:
        """The typed result (ColumnSumsResult, PcaResult, ...; a dict for kinds newer than this client)."""
        if not self.done:
            self.wait()
        return self.client.call("getJobResult", id=self.model.id)

    def array(self) -> Any:
        """The result's main array as numpy (the .npy the service serves)."""
        if not self.done:
            self.wait()
        return from_npy(self.client.call("getJobResult", id=self.model.id, accept=NPY))


def warn_noise(answer: Any, operation: str = "") -> None:
    """Raises each member of an answer's ``warnings`` list as a :class:`PrivmatNoiseWarning`
    (quotes, results, free answers, predictions: every answer that carries one)."""
    listed = answer.get("warnings") if isinstance(answer, (Model, dict)) else None
    for w in listed or []:
        warnings.warn(PrivmatNoiseWarning(w, operation), stacklevel=3)


def progress_bar(job: Any, width: int = 30) -> str:
    """One line: ``[#####.....]  50% RUNNING PCA/ANALYZE_GAUSS`` (plus the phase when the service names one)."""
    p = job.progress if isinstance(getattr(job, "progress", None), (int, float)) else 0.0
    p = min(max(float(p), 0.0), 1.0)
    filled = int(round(p * width))
    phase = job.get("phase") if isinstance(job, Model) else None
    tail = f" {phase}" if phase else ""
    return f"[{'#' * filled}{'.' * (width - filled)}] {p * 100:3.0f}% {job.state} {job.kind}/{job.mechanism}{tail}"


# parse_union is re-exported for results fetched by hand
__all__ = ["Client", "Job", "progress_bar", "to_npy", "from_npy", "parse_union", "warn_noise"]
