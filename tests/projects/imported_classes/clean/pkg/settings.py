"""Settings that compare by value (a frozen dataclass), and a builder of them and of sizes."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class Settings:
    lr: float


class SettingsBuilder:
    def __init__(self, lr):
        self.lr = lr

    def build(self):
        return Settings(self.lr)

    def size(self):
        return int(self.lr * 10)
