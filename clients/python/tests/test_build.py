"""Tests of the in-tree build backend (_backend/privmat_build.py): no service, no network."""
from __future__ import annotations

import base64
import hashlib
import sys
import tarfile
import tempfile
import unittest
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_backend"))

import privmat_build  # noqa: E402

try:
    import tomllib
except ImportError:  # pragma: no cover - Python 3.9 and 3.10
    tomllib = None


class BuildTest(unittest.TestCase):
    @unittest.skipIf(tomllib is None, "tomllib is Python 3.11+")
    def test_the_small_toml_reader_reads_pyproject_as_tomllib_does(self):
        text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
        self.assertEqual(tomllib.loads(text), privmat_build._small_toml(text))

    def test_the_wheel_records_every_file_with_its_hash_and_size(self):
        with tempfile.TemporaryDirectory() as out:
            name = privmat_build.build_wheel(out)
            self.assertEqual("privmat-0.1.0.dev0-py3-none-any.whl", name)
            with zipfile.ZipFile(Path(out) / name) as wheel:
                names = wheel.namelist()
                record = wheel.read("privmat-0.1.0.dev0.dist-info/RECORD").decode().splitlines()
                for line in record:
                    path, digest, size = line.rsplit(",", 2)
                    if path.endswith("/RECORD"):
                        self.assertEqual(("", ""), (digest, size))
                        continue
                    data = wheel.read(path)
                    expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                    self.assertEqual(f"sha256={expected}", digest, path)
                    self.assertEqual(str(len(data)), size, path)
                self.assertEqual(sorted(names), sorted(line.rsplit(",", 2)[0] for line in record))
                self.assertIn("privmat/client.py", names)
                self.assertFalse([n for n in names if "__pycache__" in n or n.endswith(".pyc")])
                metadata = wheel.read("privmat-0.1.0.dev0.dist-info/METADATA").decode()
        self.assertIn("Name: privmat\nVersion: 0.1.0.dev0\n", metadata)
        self.assertIn('Requires-Dist: numpy; extra == "numpy"', metadata)
        self.assertNotIn("Requires-Dist: numpy\n", metadata, "numpy is an extra, not a requirement")

    def test_builds_are_reproducible(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            for build in (privmat_build.build_wheel, privmat_build.build_sdist):
                first, second = build(a), build(b)
                self.assertEqual((Path(a) / first).read_bytes(), (Path(b) / second).read_bytes(), first)

    def test_the_sdist_holds_what_building_a_wheel_from_it_needs(self):
        with tempfile.TemporaryDirectory() as out:
            name = privmat_build.build_sdist(out)
            with tarfile.open(Path(out) / name) as sdist:
                names = set(sdist.getnames())
        for needed in ("pyproject.toml", "README.md", "PKG-INFO", "_backend/privmat_build.py", "privmat/__init__.py"):
            self.assertIn("privmat-0.1.0.dev0/" + needed, names)

    def test_an_editable_wheel_points_at_this_tree(self):
        with tempfile.TemporaryDirectory() as out:
            name = privmat_build.build_editable(out)
            with zipfile.ZipFile(Path(out) / name) as wheel:
                pth = [n for n in wheel.namelist() if n.endswith(".pth")]
                self.assertEqual(1, len(pth))
                self.assertEqual(str(ROOT), wheel.read(pth[0]).decode().strip())
                self.assertNotIn("privmat/client.py", wheel.namelist())


if __name__ == "__main__":
    unittest.main()
