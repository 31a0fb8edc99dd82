#!/usr/bin/env python3
"""Generates privmat/_generated.py (typed dataclasses and the operation table) from the contract.

Usage:
    python3 tools/generate.py SPEC [--check]

SPEC is the OpenAPI document: a JSON file (as served at /v3/api-docs), or openapi.yaml when PyYAML
(Debian: python3-yaml) is importable. Standard library only otherwise. With --check nothing is
written: the exit status is 1 when the checked-in module differs from what SPEC generates.

Why a small generator of our own rather than openapi-generator's Python client: that client needs
pydantic 2 and urllib3 2 at run time, and the client may depend only on the standard library and
numpy. The contract is regular (objects, arrays, a few discriminated oneOfs), so a few hundred
lines cover it, and the output is plain dataclasses anyone can read.
"""
from __future__ import annotations

import json
import keyword
import re
import sys
from pathlib import Path

OUTPUT = Path(__file__).resolve().parent.parent / "privmat" / "_generated.py"


def load_spec(path: str) -> dict:
    text = Path(path).read_text(encoding="utf-8")
    if path.endswith((".yaml", ".yml")):
        try:
            import yaml  # type: ignore
        except ImportError:
            sys.exit("reading YAML needs PyYAML (python3-yaml); pass the JSON of /v3/api-docs instead")
        return yaml.safe_load(text)
    return json.loads(text)


def snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s).lower().replace("-", "_")
    return s + "_" if keyword.iskeyword(s) else s


def ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[1]


def pascal(*parts: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in parts)


class Generator:
    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self.schemas: dict = dict(spec.get("components", {}).get("schemas", {}))
        self.classes: list[str] = []
        self.unions: list[str] = []
        self.emitted: set[str] = set()

    # --- types -------------------------------------------------------------------------------
    def spec_of(self, schema: dict, owner: str, prop: str) -> tuple[str, str]:
        """(Python annotation, conversion spec) of a property schema."""
        if "$ref" in schema:
            name = ref_name(schema["$ref"])
            target = self.schemas[name]
            if "oneOf" in target:
                return f"{name}", repr(("union", name))
            return f"{name}", repr(("model", name))
        t = schema.get("type")
        if isinstance(t, list):
            t = next((x for x in t if x != "null"), None)
        if t == "array":
            inner_ann, inner = self.spec_of(schema.get("items", {}), owner, prop)
            return f"list[{inner_ann}]", f"('list', {inner})"
        if t == "object" and "properties" in schema:
            nested = pascal(owner, prop)
            self.emit_model(nested, schema)
            return nested, repr(("model", nested))
        if t == "object":
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and extra:
                inner_ann, inner = self.spec_of(extra, owner, prop)
                return f"dict[str, {inner_ann}]", f"('map', {inner})"
            return "dict[str, Any]", "None"
        ann = {"number": "float", "integer": "int", "boolean": "bool", "string": "str"}.get(t or "", "Any")
        if t == "string" and schema.get("format") == "binary":
            ann = "bytes"
        return ann, "None"

    def emit_model(self, name: str, schema: dict) -> None:
        if name in self.emitted:
            return
        self.emitted.add(name)
        props: dict = schema.get("properties", {})
        required = set(schema.get("required", []))
        lines = ["@dataclass", f"class {name}(Model):"]
        doc = (schema.get("description") or name).strip().replace("\\", "\\\\").replace('"""', "'''")
        lines.append(f'    """{doc}"""')
        lines.append("")
        fields = []
        for json_name in sorted(props):
            p = props[json_name]
            ann, conv = self.spec_of(p, name, json_name)
            py = snake(json_name)
            comment = []
            if "enum" in p:
                comment.append("one of " + ", ".join(map(str, p["enum"])))
            if p.get("description"):
                comment.append(" ".join(p["description"].split()))
            if json_name in required:
                comment.append("required")
            if comment:
                lines.append("    # " + "; ".join(comment))
            lines.append(f"    {py}: Optional[{ann}] = None")
            fields.append(f"({py!r}, {json_name!r}, {conv})")
        lines.append("    extra: dict[str, Any] = field(default_factory=dict)")
        lines.append("")
        lines.append("    _FIELDS: ClassVar[tuple] = (")
        for f in fields:
            lines.append(f"        {f},")
        lines.append("    )")
        lines.append(f"    _REQUIRED: ClassVar[tuple] = {tuple(sorted(snake(r) for r in required))!r}")
        self.classes.append("\n".join(lines))

    def emit_union(self, name: str, schema: dict) -> None:
        disc = schema.get("discriminator", {})
        prop = disc.get("propertyName")
        mapping = {k: ref_name(v) for k, v in sorted(disc.get("mapping", {}).items())}
        members = sorted({ref_name(m["$ref"]) for m in schema["oneOf"]})
        doc = " ".join((schema.get("description") or name).split())
        body = ", ".join(f"{k!r}: {v!r}" for k, v in mapping.items())
        self.unions.append(
            f"# {doc}\n{name} = Union[{', '.join(members)}]\n"
            f"UNIONS[{name!r}] = ({prop!r}, {{{body}}})")

    # --- operations --------------------------------------------------------------------------
    def response_spec(self, op: dict) -> tuple[str | None, str]:
        for status in sorted(op.get("responses", {})):
            if not status.startswith("2"):
                continue
            content = op["responses"][status].get("content", {})
            if "application/json" in content:
                return status, self.spec_of(content["application/json"].get("schema", {}), "", "")[1]
            return status, "None"
        return None, "None"

    def operations(self) -> list[str]:
        out = []
        for path in sorted(self.spec.get("paths", {})):
            for method, op in sorted(self.spec["paths"][path].items()):
                if method not in ("get", "post", "put", "delete", "patch"):
                    continue
                params = tuple((p["name"], p["in"]) for p in op.get("parameters", []))
                body = tuple(sorted(op.get("requestBody", {}).get("content", {})))
                responses = []
                for status in sorted(op.get("responses", {})):
                    if status.startswith("2"):
                        responses.extend(op["responses"][status].get("content", {}))
                _, resp = self.response_spec(op)
                summary = " ".join((op.get("summary") or "").split())
                out.append(
                    f"    {op['operationId']!r}: Operation({op['operationId']!r}, {method.upper()!r}, "
                    f"{path!r},\n        {params!r},\n        {body!r}, "
                    f"{tuple(sorted(set(responses)))!r}, {resp},\n        {summary!r}),")
        return out

    def render(self) -> str:
        for name in sorted(self.schemas):
            s = self.schemas[name]
            if "oneOf" in s:
                continue
            self.emit_model(name, s)
        for name in sorted(self.schemas):
            if "oneOf" in self.schemas[name]:
                self.emit_union(name, self.schemas[name])
        ops = self.operations()
        info = self.spec.get("info", {})
        head = f'''"""Typed models and the operation table of the privmat contract (API {info.get("version", "?")}).

GENERATED by tools/generate.py from openapi.yaml: do not edit; regenerate instead. Every model
keeps members the contract does not (yet) name in ``extra``, so newer services still parse.
"""
# fmt: off
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Optional, Union

from ._model import Model, Operation, UNIONS

API_VERSION = {info.get("version", "")!r}
'''
        parts = [head]
        parts.extend(c + "\n" for c in self.classes)
        parts.extend(u + "\n" for u in self.unions)
        parts.append("OPERATIONS: dict[str, Operation] = {\n" + "\n".join(ops) + "\n}\n")
        return "\n\n".join(parts)


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    text = Generator(load_spec(args[0])).render()
    if "--check" in argv:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is out of date: run python3 tools/generate.py {args[0]}", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
