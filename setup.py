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
import platform
import re
import shutil
import subprocess
import sys
import tempfile
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


# The C parts of Go's runtime call seven pthread functions that glibc 2.32
# and 2.34 moved into libc.so.6 under new symbol versions, which would make
# the library need glibc 2.34 (manylinux_2_34). glibc keeps the old versions
# in libc.so.6 as aliases of the very same code (the same addresses), so on
# glibc 2.34 or later the build binds to those instead, with .symver
# directives in a header included into every C file cgo compiles; the
# library then needs glibc 2.3.2 or later (x86_64; 2.17 on aarch64), and
# auditwheel gives the wheel a manylinux2014 tag. PATIENCE_GYM_GLIBC_COMPAT=0
# turns this off.
GLIBC_MOVED = ("pthread_create", "pthread_key_create", "pthread_setspecific", "pthread_attr_getstack",
               "pthread_attr_getstacksize", "pthread_getattr_np", "pthread_sigmask")
GLIBC_BASE = {"x86_64": "GLIBC_2.2.5", "aarch64": "GLIBC_2.17"}


def glibc_compat_header(dest_dir: Path) -> Path | None:
    """Writes the header of old symbol versions, or None where it does not apply."""
    if os.environ.get("PATIENCE_GYM_GLIBC_COMPAT", "1") == "0" or not sys.platform.startswith("linux"):
        return None
    libc, version = platform.libc_ver()
    base = GLIBC_BASE.get(platform.machine())
    m = re.match(r"(\d+)\.(\d+)", version)
    if libc != "glibc" or base is None or m is None or (int(m[1]), int(m[2])) < (2, 34):
        return None
    lines = ["/* Written by setup.py: bind to the pthread symbols of old glibc versions. */", "#ifndef __ASSEMBLER__"]
    lines += [f'__asm__(".symver {f},{f}@{base}");' for f in GLIBC_MOVED]
    lines += ["#endif", ""]
    path = dest_dir / "patience_glibc_compat.h"
    path.write_text("\n".join(lines))
    return path


def build_library(dest_dir: Path) -> None:
    """Compiles the Go core into dest_dir/LIBNAME."""
    root = go_root()
    go = go_binary()
    dest_dir = dest_dir.resolve()
    dest_dir.mkdir(parents=True, exist_ok=True)
    out = dest_dir / LIBNAME
    env = go_env()
    with tempfile.TemporaryDirectory() as tmp:
        header = glibc_compat_header(Path(tmp))
        if header is not None:
            env["CGO_CFLAGS"] = f"{env.get('CGO_CFLAGS', '-O2 -g')} -include {header}"
            print(f"patience-gym: binding glibc's pthread symbols to {GLIBC_BASE[platform.machine()]} (see setup.py)", flush=True)
        compile_library(go, root, out, env)


def compile_library(go: str, root: Path, out: Path, env: dict[str, str]) -> None:
    """Runs go build into out."""
    # -trimpath and -buildvcs=false: the library does not depend on where or
    # from which git state it was built; -s -w: no symbol table or DWARF
    # (Go's own stack traces keep their function names). -tags netgo,osusergo:
    # the Parquet reader the verdict tables use pulls in package net, whose
    # cgo DNS resolver would bind res_search@GLIBC_2.34 (manylinux_2_34); the
    # library never resolves a name, and the pure-Go resolver needs no libc.
    cmd = [go, "build", "-buildmode=c-shared", "-trimpath", "-buildvcs=false", "-tags=netgo,osusergo",
           "-ldflags=-s -w", "-o", str(out), "./capi"]
    print("patience-gym:", " ".join(cmd), f"(in {root})", flush=True)
    res = subprocess.run(cmd, cwd=root, env=env)
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
