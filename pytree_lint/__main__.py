from .faces.cli import console

if __name__ == "__main__":  # not when multiprocessing imports this module again in a child
    console()
