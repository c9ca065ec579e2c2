from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .schedule import Schedule


def tick(schedule: Schedule) -> None:
    schedule.step += 1
