from .model import Stack


def deepen(stack: Stack, size: int) -> None:
    stack.sizes.append(size)
