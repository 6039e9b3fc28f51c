"""Reinforcement-learning environments (extra ``[rl]``): numpy lives here, not in the rules.

- [`shedkit.envs.pettingzoo`][shedkit.envs.pettingzoo]: ``env("doudizhu", **options)``, a PettingZoo
  AEC environment per game (Dou Di Zhu, President, Dominoes, Tien Gow), agents
  ``player_0`` …, masked dense actions;
- [`shedkit.envs.gymnasium`][shedkit.envs.gymnasium]: ``SingleAgentEnv``, one learning seat against
  [`shedkit.agents`][shedkit.agents] bots;
- `shedkit.envs.encodings`: the documented observation layout of each game.
"""

from shedkit.core.extras import require_extra

# Every submodule imports this package first, so this one check covers them all.
require_extra("rl", "shedkit.envs", "numpy", "gymnasium", "pettingzoo")
