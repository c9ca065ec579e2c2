from .fields import static_field
from .typing import Array

__all__ = ["Array", "static_field"]
