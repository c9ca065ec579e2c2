from .gauges import Gauges


def note_all(gauges: dict[str, Gauges], entry: str) -> None:
    for each in gauges.values():
        each.log.append(entry)
