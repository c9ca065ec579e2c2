"""`from pytree_lint.testing import check_pytree`: the public name of runtime/testing.py's check."""

from .runtime.testing import PytreeCheckError, check_pytree

__all__ = ["PytreeCheckError", "check_pytree"]
