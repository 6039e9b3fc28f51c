"""The per-game pieces of the search engine: reward, rollout policy, root moves, endgames.

Each game's knowledge lives in a module of its own (`doudizhu`, `dominoes`,
`president`, `tiengow`) over what they share (`sampler`: greedy rollouts, and deals drawn
uniformly or by how likely they make the moves seen, Metropolis chains included).
A knowledge holds its game and one `SearchSettings` (`settings`); `knowledge_for`
builds a game's from its defaults and the settings a run changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from shedkit.agents.search.knowledge.dominoes import DominoesKnowledge
from shedkit.agents.search.knowledge.doudizhu import DouDizhuKnowledge
from shedkit.agents.search.knowledge.president import PresidentKnowledge
from shedkit.agents.search.knowledge.sampler import GreedyRollouts
from shedkit.agents.search.knowledge.settings import OBJECTIVES, SearchSettings
from shedkit.agents.search.knowledge.tiengow import TienGowKnowledge

__all__ = [
    "KNOWLEDGE",
    "OBJECTIVES",
    "SETTINGS",
    "DominoesKnowledge",
    "DouDizhuKnowledge",
    "GreedyRollouts",
    "PresidentKnowledge",
    "SearchSettings",
    "TienGowKnowledge",
    "knowledge_for",
]

#: Each game's knowledge, by the game's name.
KNOWLEDGE: Final[dict[str, type[GreedyRollouts]]] = {
    "doudizhu": DouDizhuKnowledge,
    "president": PresidentKnowledge,
    "dominoes": DominoesKnowledge,
    "tiengow": TienGowKnowledge,
}

#: The settings `knowledge_for` takes for each game beside ``epsilon`` (for experiments).
SETTINGS: Final = {name: kind.names for name, kind in KNOWLEDGE.items()}


def knowledge_for(
    game: Any, epsilon: float = 0.1, settings: Mapping[str, Any] | None = None
) -> GreedyRollouts:
    """The search engine's knowledge of ``game`` (Dou Di Zhu, President, Dominoes or Tien Gow).

    ``settings`` change a game's defaults (see `SETTINGS`), e.g. ``{"objective": "adp"}``.
    """
    settings = dict(settings or {})
    if "epsilon" in settings:
        epsilon = float(settings.pop("epsilon"))
    kind = KNOWLEDGE.get(game.name)
    if kind is None:
        raise ValueError(f"no search knowledge for game {game.name!r}")
    unknown = sorted(set(settings) - set(kind.names))
    if unknown:
        valid = ", ".join(kind.names) or "none"
        raise ValueError(f"unknown {game.name} search setting(s) {unknown}; valid: {valid}")
    return kind(game, replace(kind.defaults, epsilon=epsilon, **settings))
