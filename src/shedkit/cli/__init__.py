"""The ``shedkit`` command line: ``shedkit play doudizhu``, ``shedkit replay FILE``."""

from shedkit.cli.main import main

__all__ = ["main"]
