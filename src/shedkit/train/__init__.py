"""Training learned agents: ``shedkit train doudizhu`` (Deep Monte-Carlo, as DouZero).

- [`selfplay`][shedkit.train.selfplay]: the actors' deals, in numpy (no PyTorch);
- [`backends`][shedkit.train.backends]: actors in local processes or as Ray tasks;
- [`nets`][shedkit.train.nets]: the learner's networks in PyTorch, DouZero's layers;
- [`dmc`][shedkit.train.dmc]: the learner, checkpoints, resuming, evaluation;
- [`plot`][shedkit.train.plot]: a run's win rates against ``greedy`` by training time.

The actors need the ``[rl]`` extra (numpy); the learner needs ``[train]`` (PyTorch).
Importing this package imports neither.
"""

from __future__ import annotations

import os
from typing import Final

__all__ = ["ACTOR_ENV", "single_threaded"]

#: One BLAS thread per actor: several threads per process slow every actor down (on two
#: cores, two actors with two BLAS threads each ran ten times slower than with one).
ACTOR_ENV: Final = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def single_threaded() -> None:
    """An actor process's initializer: one BLAS thread, set before numpy is imported.

    It lives here, where importing it imports no numpy: a spawned worker reads the
    variables when its first task imports the actors' modules.
    """
    os.environ.update(ACTOR_ENV)
