from .barn import Barn


def store(barn: Barn, grain: str) -> None:
    for silo in barn.silos:
        silo.grains.append(grain)
