"""Build step of patience-gym: compiles the Go core into a shared library.

`pip install ./python` (from a clone of the repository) runs `go build
-buildmode=c-shared ./capi` in the repository root, the parent of this
directory, and puts the library inside the package. The Go toolchain (1.26 or
later) must be on PATH; set PATIENCE_GO_ROOT to build from a checkout
elsewhere.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
MODULE = "github.com/patience-gym/patience"
GO_NEEDED = (1, 26)

if sys.platform == "darwin":
    LIBNAME = "libpatience.dylib"
elif sys.platform == "win32":
    LIBNAME = "patience.dll"
else:
    LIBNAME = "libpatience.so"


def go_root() -> Path:
    """The Go module root: $PATIENCE_GO_ROOT or the parent of python/."""
    root = Path(os.environ.get("PATIENCE_GO_ROOT", HERE.parent)).resolve()
    gomod = root / "go.mod"
    if not gomod.is_file() or f"module {MODULE}" not in gomod.read_text():
        raise SystemExit(
            f"patience-gym: the Go sources of {MODULE} were not found in {root}. "
            "Install from a clone of the repository (pip install ./python), "
            "or set PATIENCE_GO_ROOT to the repository's root."
        )
    return root


def go_binary() -> str:
    """The go command, checked to be recent enough; a plain message if not."""
    need = ".".join(map(str, GO_NEEDED))
    go = shutil.which("go")
    if go is None:
        raise SystemExit(
            f"patience-gym: the Go toolchain was not found on PATH. Building this package "
            f"compiles its Go core, which needs Go {need} or later (https://go.dev/dl/)."
        )
    out = subprocess.run([go, "env", "GOVERSION"], capture_output=True, text=True).stdout.strip()
    m = re.match(r"go(\d+)\.(\d+)", out)
    if m is None or (int(m[1]), int(m[2])) < GO_NEEDED:
        raise SystemExit(
            f"patience-gym: found {out or 'an unknown Go version'} at {go}; "
            f"building this package needs Go {need} or later (https://go.dev/dl/)."
        )
    return go


def build_library(dest_dir: Path) -> None:
    """Compile the Go core into dest_dir/LIBNAME."""
    root = go_root()
    go = go_binary()
    dest_dir = dest_dir.resolve()
    dest_dir.mkdir(parents=True, exist_ok=True)
    out = dest_dir / LIBNAME
    env = dict(os.environ, CGO_ENABLED="1", GOTOOLCHAIN="local")
    cmd = [go, "build", "-buildmode=c-shared", "-trimpath", "-o", str(out), "./capi"]
    print("patience-gym:", " ".join(cmd), f"(in {root})", flush=True)
    res = subprocess.run(cmd, cwd=root, env=env)
    if res.returncode != 0:
        raise SystemExit(f"patience-gym: go build failed (exit code {res.returncode}); see the output above.")
    header = out.with_suffix(".h")
    if header.exists():
        header.unlink()  # the C header is not needed by the package


class BuildPy(build_py):
    """build_py that also compiles the Go core and installs the gymnasium hook."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            build_library(HERE / "patience_gym")
            return
        build_library(Path(self.build_lib) / "patience_gym")
        # patience_gym.pth runs _patience_gym_hook at start-up, which
        # registers the environments when gymnasium is first imported.
        self.copy_file(str(HERE / "patience_gym.pth"), str(Path(self.build_lib) / "patience_gym.pth"))


class BinaryDistribution(Distribution):
    """The wheel holds a compiled library: it is specific to the platform."""

    def has_ext_modules(self) -> bool:
        return True


setup(
    cmdclass={"build_py": BuildPy},
    distclass=BinaryDistribution,
    py_modules=["_patience_gym_hook"],
)
