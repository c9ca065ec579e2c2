from .ladder import Ladder


class Climber:
    def __init__(self, ladders):
        self.ladders: list[Ladder] = ladders

    def note(self, entry: str) -> None:
        for ladder in self.ladders:
            ladder.log.append(entry)
