"""Build steps of patience-gym that pyproject.toml cannot declare.

1. build_py compiles the Go core, ``go build -buildmode=c-shared ./capi``, in
   the directory of this file (a clone of the repository, or an unpacked
   sdist) and puts the shared library inside the package. The Go toolchain
   (1.26 or later) must be on PATH; PATIENCE_GO_ROOT names another module root.
2. bdist_wheel tags the wheel py3-none-<platform>: the library is loaded with
   ctypes, so one wheel serves every Python 3 version of a platform
   (``make wheel`` then repairs the linux tag to a manylinux one).
3. sdist adds the Go sources the build needs: go.mod, go.sum and the
   non-test files of every package of this module that capi imports, as
   ``go list -deps ./capi`` lists them (no docs, data or other commands).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1 keeps it in the wheel package
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
MODULE = "github.com/patience-gym/patience"
GO_NEEDED = (1, 26)
PACKAGE_DIR = Path("python") / "patience_gym"

if sys.platform == "darwin":
    LIBNAME = "libpatience.dylib"
elif sys.platform == "win32":
    LIBNAME = "patience.dll"
else:
    LIBNAME = "libpatience.so"


def go_root() -> Path:
    """The Go module root: $PATIENCE_GO_ROOT or the directory of this file."""
    root = Path(os.environ.get("PATIENCE_GO_ROOT", HERE)).resolve()
    gomod = root / "go.mod"
    if not gomod.is_file() or f"module {MODULE}" not in gomod.read_text():
        raise SystemExit(
            f"patience-gym: the Go sources of {MODULE} were not found in {root}. "
            "Build from a clone of the repository or from the sdist (both carry them), "
            "or set PATIENCE_GO_ROOT to the repository's root."
        )
    return root


def go_binary() -> str:
    """The go command, checked to be recent enough; a plain message if not."""
    need = ".".join(map(str, GO_NEEDED))
    go = shutil.which("go")
    if go is None:
        raise SystemExit(
            f"patience-gym: the Go toolchain was not found on PATH. Building this package from source "
            f"compiles its Go core, which needs Go {need} or later (https://go.dev/dl/); "
            "the platform wheels need no Go."
        )
    out = subprocess.run([go, "env", "GOVERSION"], capture_output=True, text=True).stdout.strip()
    m = re.match(r"go(\d+)\.(\d+)", out)
    if m is None or (int(m[1]), int(m[2])) < GO_NEEDED:
        raise SystemExit(
            f"patience-gym: found {out or 'an unknown Go version'} at {go}; "
            f"building this package needs Go {need} or later (https://go.dev/dl/)."
        )
    return go


def go_env() -> dict[str, str]:
    return dict(os.environ, CGO_ENABLED="1", GOTOOLCHAIN="local")


def build_library(dest_dir: Path) -> None:
    """Compiles the Go core into dest_dir/LIBNAME."""
    root = go_root()
    go = go_binary()
    dest_dir = dest_dir.resolve()
    dest_dir.mkdir(parents=True, exist_ok=True)
    out = dest_dir / LIBNAME
    # -trimpath and -buildvcs=false: the library does not depend on where or
    # from which git state it was built; -s -w: no symbol table or DWARF
    # (Go's own stack traces keep their function names).
    cmd = [go, "build", "-buildmode=c-shared", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", str(out), "./capi"]
    print("patience-gym:", " ".join(cmd), f"(in {root})", flush=True)
    res = subprocess.run(cmd, cwd=root, env=go_env())
    if res.returncode != 0:
        raise SystemExit(f"patience-gym: go build failed (exit code {res.returncode}); see the output above.")
    header = out.with_suffix(".h")
    if header.exists():
        header.unlink()  # the C header is not needed by the package


def go_sources(root: Path) -> list[str]:
    """The files the sdist needs to build the core, relative to root."""
    fields = "Dir,Module,GoFiles,CgoFiles,IgnoredGoFiles,CFiles,HFiles,SFiles,EmbedFiles"
    res = subprocess.run(
        [go_binary(), "list", "-deps", f"-json={fields}", "./capi"], cwd=root, env=go_env(), capture_output=True, text=True
    )
    if res.returncode != 0:
        raise SystemExit(f"patience-gym: go list -deps ./capi failed: {res.stderr.strip()}")
    files = ["go.mod", "go.sum"]
    dec, text, i = json.JSONDecoder(), res.stdout, 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        pkg, i = dec.raw_decode(text, i)
        if not (pkg.get("Module") or {}).get("Main"):
            continue  # the standard library and other modules' packages
        rel = Path(pkg["Dir"]).resolve().relative_to(root)
        for key in ("GoFiles", "CgoFiles", "IgnoredGoFiles", "CFiles", "HFiles", "SFiles", "EmbedFiles"):
            for name in pkg.get(key) or []:
                if not name.endswith("_test.go"):
                    files.append((rel / name).as_posix())
    return sorted(set(files))


class BuildPy(build_py):
    """build_py that also compiles the Go core into the package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            build_library(HERE / PACKAGE_DIR)
        else:
            build_library(Path(self.build_lib) / "patience_gym")


class BdistWheel(bdist_wheel):
    """A wheel for every Python 3 of one platform (ctypes loads the library)."""

    def get_tag(self) -> tuple[str, str, str]:
        _, _, plat = super().get_tag()
        return "py3", "none", plat


class Sdist(sdist):
    """An sdist that carries the Go sources of the core."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        # No compiled library from an editable install or an earlier build.
        files = [f for f in files if not Path(f).name.startswith(("libpatience.", "patience.dll"))]
        super().make_release_tree(base_dir, files)
        root = go_root()
        for rel in go_sources(root):
            dest = Path(base_dir) / rel
            self.mkpath(str(dest.parent))
            self.copy_file(str(root / rel), str(dest))


class BinaryDistribution(Distribution):
    """The wheel holds a compiled library: it is specific to the platform."""

    def has_ext_modules(self) -> bool:
        return True


setup(
    cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel, "sdist": Sdist},
    distclass=BinaryDistribution,
)
