from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Stack


def add_size(stack: Stack, size: int) -> None:
    stack.sizes.append(size)
