"""The project's base class: its `__init__` only stores what it is given."""


class Signal:
    def __init__(self, rate):
        self.rate = int(rate)

    def check(self):
        assert self.samples.ndim == 1, "one channel"
