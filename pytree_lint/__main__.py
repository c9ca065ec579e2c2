"""The `pytree-lint` command's process: `python -m pytree_lint` and the console script."""

import gc
from typing import NoReturn


def console() -> NoReturn:
    """Import the command with the cyclic collector paused, and move what the imports made out of its sight
    (`gc.freeze`) before it resumes: modules, classes and functions live as long as the process, and the
    collector walked them over and over while the imports made them (a tenth of the command's imports: 5 of 47
    ms). Then run it (faces.cli.console)."""
    gc.disable()
    from .faces.cli import console as run

    gc.freeze()
    gc.enable()
    run()


if __name__ == "__main__":  # not when multiprocessing imports this module again in a child
    console()
