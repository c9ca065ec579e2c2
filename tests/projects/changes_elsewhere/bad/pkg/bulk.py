from .gauges import Gauges


def extend_all(gauges: dict[str, Gauges], name: str) -> None:
    for each in gauges.values():
        each.names.append(name)
