"""pytree-lint: static analysis for JAX pytree misuse."""

__version__ = "0.2.0"

from .engine import Finding, LintError, lint_file, lint_source

__all__ = ["Finding", "LintError", "__version__", "lint_file", "lint_source"]
