from .schedule import Schedule


def tick(schedule: Schedule) -> None:
    schedule.step += 1
