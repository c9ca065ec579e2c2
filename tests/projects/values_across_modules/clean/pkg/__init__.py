"""Models with masks and settings kept in their own modules."""
from .config import DEFAULTS

__all__ = ["DEFAULTS"]
