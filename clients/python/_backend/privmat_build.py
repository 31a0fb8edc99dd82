"""The build backend of the privmat client (PEP 517, with PEP 660 editable installs): standard library
only, so that ``pip install ./clients/python`` needs no index, no setuptools and no wheel package.

pyproject.toml names it (``build-backend = "privmat_build"``, ``backend-path = ["_backend"]``) and
lists no build requirements. It builds a pure-Python wheel of the package directories listed under
``[tool.privmat-build] packages`` and an sdist of the project, from the ``[project]`` table: name,
version, description, readme, license, requires-python, dependencies and optional-dependencies (the
core metadata of PEP 621 that this project uses; anything else there is refused rather than dropped).
Archives are reproducible: sorted entries, fixed timestamps, no byte-compiled files.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip entry can carry
_KNOWN = {"name", "version", "description", "readme", "license", "requires-python", "dependencies",
          "optional-dependencies"}


# --- pyproject.toml ------------------------------------------------------------------------------
def _load_toml(text: str) -> dict:
    try:
        import tomllib  # Python 3.11+
    except ImportError:  # pragma: no cover - Python 3.9 and 3.10
        return _small_toml(text)
    return tomllib.loads(text)


def _small_toml(text: str) -> dict:
    """The part of TOML this pyproject.toml uses: [tables], key = "string" | [strings] | {k = "v"},
    arrays over several lines, comments. Enough to build on Pythons without tomllib."""
    import ast
    out: dict = {}
    table = out
    pending = ""
    for raw in text.splitlines():
        line = _strip_comment(raw).strip()
        if not line and not pending:
            continue
        if pending:
            pending += " " + line
            if pending.count("[") > pending.count("]"):
                continue
            line, pending = pending, ""
        m = re.fullmatch(r"\[([A-Za-z0-9_.\-]+)\]", line)
        if m:
            table = out
            for part in m.group(1).split("."):
                table = table.setdefault(part, {})
            continue
        key, _, value = line.partition("=")
        key, value = key.strip().strip('"'), value.strip()
        if value.startswith("[") and value.count("[") > value.count("]"):
            pending = line
            continue
        if value.startswith("{"):
            value = "{" + ", ".join(f'"{k.strip()}": {v.strip()}' for k, v in
                                    (item.split("=", 1) for item in value[1:-1].split(",") if item.strip())) + "}"
        table[key] = ast.literal_eval(value.replace("true", "True").replace("false", "False"))
    return out


def _strip_comment(line: str) -> str:
    inside = False
    for i, ch in enumerate(line):
        if ch == '"':
            inside = not inside
        elif ch == "#" and not inside:
            return line[:i]
    return line


def _project() -> tuple[dict, list[str]]:
    data = _load_toml((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = data["project"]
    unknown = set(project) - _KNOWN
    if unknown:
        raise ValueError(f"privmat_build does not write {sorted(unknown)} of [project]; extend it first")
    packages = data.get("tool", {}).get("privmat-build", {}).get("packages", [project["name"]])
    return project, packages


def _dist_name(project: dict) -> str:
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project: dict) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    licence = project.get("license")
    if isinstance(licence, dict) and "text" in licence:
        lines.append(f"License: {licence['text']}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, requirements in sorted(project.get("optional-dependencies", {}).items()):
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    body = ""
    if "readme" in project:
        lines.append("Description-Content-Type: text/markdown")
        body = (ROOT / project["readme"]).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + body


def _sources(packages: list[str]) -> list[Path]:
    files = []
    for package in packages:
        for path in sorted((ROOT / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo"):
                files.append(path)
    return files


# --- wheels --------------------------------------------------------------------------------------
class _Wheel:
    """A wheel being written: every entry recorded, with its hash and size, for RECORD."""

    def __init__(self, path: Path, dist_info: str) -> None:
        self.zip = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
        self.dist_info = dist_info
        self.records: list[str] = []

    def add(self, name: str, data: bytes) -> None:
        info = zipfile.ZipInfo(name, _EPOCH)
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        self.records.append(f"{name},sha256={digest},{len(data)}")

    def close(self) -> None:
        record = f"{self.dist_info}/RECORD"
        data = ("\n".join(self.records + [f"{record},,"]) + "\n").encode("utf-8")
        info = zipfile.ZipInfo(record, _EPOCH)
        info.external_attr = 0o644 << 16
        self.zip.writestr(info, data)
        self.zip.close()


def _dist_info_files(project: dict, generator_tag: str = "py3-none-any") -> dict[str, bytes]:
    wheel = f"Wheel-Version: 1.0\nGenerator: privmat_build\nRoot-Is-Purelib: true\nTag: {generator_tag}\n"
    return {"METADATA": _metadata(project).encode("utf-8"), "WHEEL": wheel.encode("utf-8")}


def _build(wheel_directory: str, editable: bool) -> str:
    project, packages = _project()
    name = f"{_dist_name(project)}-{project['version']}"
    filename = f"{name}-py3-none-any.whl"
    wheel = _Wheel(Path(wheel_directory) / filename, f"{name}.dist-info")
    if editable:
        # PEP 660: the installed package is this source tree, put on sys.path by a .pth file.
        wheel.add(f"__editable__.{name}.pth", (str(ROOT) + "\n").encode("utf-8"))
    else:
        for path in _sources(packages):
            wheel.add(path.relative_to(ROOT).as_posix(), path.read_bytes())
    for entry, data in _dist_info_files(project).items():
        wheel.add(f"{name}.dist-info/{entry}", data)
    wheel.close()
    return filename


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _build(wheel_directory, editable=False)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _build(wheel_directory, editable=True)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project, _ = _project()
    dist_info = f"{_dist_name(project)}-{project['version']}.dist-info"
    os.makedirs(Path(metadata_directory) / dist_info, exist_ok=True)
    for entry, data in _dist_info_files(project).items():
        (Path(metadata_directory) / dist_info / entry).write_bytes(data)
    return dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_editable = get_requires_for_build_wheel
get_requires_for_build_sdist = get_requires_for_build_wheel


# --- sdists --------------------------------------------------------------------------------------
def build_sdist(sdist_directory, config_settings=None):
    project, packages = _project()
    name = f"{_dist_name(project)}-{project['version']}"
    files = [ROOT / "pyproject.toml", ROOT / project.get("readme", "pyproject.toml")]
    files += _sources(packages + ["_backend", "tests", "tools"])
    filename = f"{name}.tar.gz"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        def add(arcname: str, data: bytes) -> None:
            info = tarfile.TarInfo(f"{name}/{arcname}")
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))

        for path in sorted(set(files)):
            if path.exists():
                add(path.relative_to(ROOT).as_posix(), path.read_bytes())
        add("PKG-INFO", _metadata(project).encode("utf-8"))
    with open(Path(sdist_directory) / filename, "wb") as out, \
            gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as compressed:
        compressed.write(raw.getvalue())
    return filename
