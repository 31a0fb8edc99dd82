"""The runtime of the generated models: JSON to dataclasses and back (hand-written)."""
from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from typing import Any, ClassVar, NamedTuple

# union name -> (discriminator property, {discriminator value: model class name})
UNIONS: dict[str, tuple[str, dict[str, str]]] = {}


class Operation(NamedTuple):
    """One operation of the contract: how to call it and what it answers."""

    operation_id: str
    method: str
    path: str
    parameters: tuple  # (name, "path" | "query" | "header")
    request_types: tuple  # request body media types
    response_types: tuple  # success media types
    response: Any  # conversion spec of the JSON answer
    summary: str


def _models() -> Any:
    return sys.modules[__package__ + "._generated"]


def convert(spec: Any, value: Any) -> Any:
    """Converts a JSON value by a conversion spec (None: as is)."""
    if value is None or spec is None:
        return value
    kind, inner = spec
    if kind == "model":
        return getattr(_models(), inner).from_dict(value) if isinstance(value, dict) else value
    if kind == "union":
        return parse_union(inner, value)
    if kind == "list":
        return [convert(inner, v) for v in value] if isinstance(value, list) else value
    if kind == "map":
        return {k: convert(inner, v) for k, v in value.items()} if isinstance(value, dict) else value
    raise ValueError(f"unknown conversion {spec!r}")


def parse_union(name: str, value: Any) -> Any:
    """A discriminated oneOf: the member its discriminator names, else the raw dict (a newer kind)."""
    if not isinstance(value, dict):
        return value
    prop, mapping = UNIONS[name]
    target = mapping.get(value.get(prop))
    return getattr(_models(), target).from_dict(value) if target else value


def to_json(value: Any) -> Any:
    if isinstance(value, Model):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items() if v is not None}
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return value.tolist()
    return value


@dataclass
class Model:
    """Base of the generated dataclasses."""

    _FIELDS: ClassVar[tuple] = ()
    _REQUIRED: ClassVar[tuple] = ()

    @classmethod
    def from_dict(cls, data: dict) -> Any:
        known = {}
        names = set()
        for py, js, spec in cls._FIELDS:
            names.add(js)
            if js in data:
                known[py] = convert(spec, data[js])
        extra = {k: v for k, v in data.items() if k not in names}
        return cls(**known, extra=extra)

    def to_dict(self) -> dict:
        out = {}
        for py, js, _ in self._FIELDS:
            v = getattr(self, py)
            if v is not None:
                out[js] = to_json(v)
        for k, v in self.extra.items():
            out.setdefault(k, to_json(v))
        return out

    def __getitem__(self, json_name: str) -> Any:
        """The member by its JSON name, known or extra (``job["state"]``)."""
        for py, js, _ in self._FIELDS:
            if js == json_name:
                return getattr(self, py)
        return self.extra[json_name]

    def get(self, json_name: str, default: Any = None) -> Any:
        try:
            v = self[json_name]
        except KeyError:
            return default
        return default if v is None else v


__all__ = ["Model", "Operation", "UNIONS", "convert", "parse_union", "to_json", "fields"]
