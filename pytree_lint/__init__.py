"""pytree-lint: static analysis for JAX pytree misuse."""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.2.0"

__all__ = ["Finding", "LintError", "__version__", "lint_file", "lint_source"]

if TYPE_CHECKING:
    from .engine import Finding, LintError, lint_file, lint_source


def __getattr__(name: str) -> object:
    """The engine's names, imported when first asked for: importing the package imports nothing else, so that
    the command can pause the cyclic collector over its own imports (see __main__)."""
    if name in __all__:
        from . import engine

        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
