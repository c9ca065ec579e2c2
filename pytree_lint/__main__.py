from .faces.cli import main

if __name__ == "__main__":  # not when multiprocessing imports this module again in a child
    raise SystemExit(main())
