from .silo import Silo


class Barn:
    def __init__(self, silos: list[Silo]):
        self.silos: list[Silo] = silos
