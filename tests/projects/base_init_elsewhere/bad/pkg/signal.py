"""The project's base class: its `__init__` checks the samples a subclass has already set."""


class Signal:
    def __init__(self, rate):
        assert self.samples.ndim == 1, "one channel"
        self.rate = int(rate)
