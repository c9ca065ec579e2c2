from .barn import Barn


def note(barn: Barn, entry: str) -> None:
    for silo in barn.silos:
        silo.log.append(entry)
