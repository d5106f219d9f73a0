"""Registers patience_gym's environments when gymnasium is first imported.

Installed with patience_gym.pth, which Python runs at start-up. Gymnasium 1.x
no longer loads the "gymnasium.envs" entry points, so this is what lets
``gymnasium.make("patience/Cromwell-v1")`` work without importing
patience_gym first. It costs one cheap finder on sys.meta_path until
gymnasium is imported, and nothing at all if it never is.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import warnings
from types import ModuleType
from typing import Any, Sequence


class _GymnasiumHook(importlib.abc.MetaPathFinder):
    """Finds gymnasium through the other finders and registers after it loads."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> Any:
        if fullname != "gymnasium":
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:
            return None
        spec = importlib.util.find_spec("gymnasium")
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        exec_module = loader.exec_module

        def exec_then_register(module: ModuleType) -> None:
            exec_module(module)
            try:
                import patience_gym  # noqa: F401  (importing registers the environments)
            except Exception as e:  # never break gymnasium's own import
                warnings.warn(f"patience_gym could not register its environments: {e}", stacklevel=2)

        loader.exec_module = exec_then_register  # type: ignore[method-assign]
        return spec


if "gymnasium" not in sys.modules and not any(isinstance(f, _GymnasiumHook) for f in sys.meta_path):
    sys.meta_path.insert(0, _GymnasiumHook())
