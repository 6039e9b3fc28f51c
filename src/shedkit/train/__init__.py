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

__all__: list[str] = []
