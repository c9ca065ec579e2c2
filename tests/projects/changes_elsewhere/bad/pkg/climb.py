from .ladder import Ladder


class Climber:
    def __init__(self, ladders):
        self.ladders: list[Ladder] = ladders

    def extend(self, rung: str) -> None:
        for ladder in self.ladders:
            ladder.rungs.append(rung)
