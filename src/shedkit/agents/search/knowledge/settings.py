"""The settings of a search's knowledge of a game: one frozen record, checked when made.

Every game reads the fields it has a use for and ignores the others; each game's
knowledge names the ones a run may change (``names``) and starts from its own
`SearchSettings` (``defaults``: Dominoes and Tien Gow score points, the others a win). A variant
is `dataclasses.replace` of the defaults:

>>> from dataclasses import replace
>>> replace(SearchSettings(), mcmc=60, chains=3).chains
3
>>> SearchSettings(mcmc=10, infer=10)
Traceback (most recent call last):
ValueError: infer and mcmc are two ways to weigh deals: set one of them
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

__all__ = ["OBJECTIVES", "SearchSettings"]

#: What a Dou Di Zhu, Dominoes or Tien Gow search maximises: "wp" the chance to win, "adp"
#: the points (Tien Gow: chips) won.
OBJECTIVES: Final = ("wp", "adp")


@dataclass(frozen=True)
class SearchSettings:
    """How a search rolls out, scores, draws its deals and solves endgames (all games)."""

    #: The chance that a rollout plays a uniformly random legal move instead of the greedy one.
    epsilon: float = 0.1
    #: What a playout scores (one of `OBJECTIVES`; Dou Di Zhu, Dominoes and Tien Gow).
    objective: str = "wp"
    #: Dou Di Zhu: of a combination's kicker choices, the root tries the one leaving the best plan.
    group_kickers: bool = True
    #: Dou Di Zhu: a random rollout move is never a bomb or the rocket.
    calm_rollouts: bool = True
    #: The root moves are played out on the same deals with the same dice (`run_paired`).
    paired: bool = False
    #: Deals drawn uniformly and weighed by how likely they make the moves seen (0: off).
    infer: int = 0
    #: ε of the ε-greedy seats whose moves the likelihood of a deal is measured by.
    model_epsilon: float = 0.25
    #: Steps of Metropolis chains that draw the deals instead (0: off).
    mcmc: int = 0
    #: How many chains, each from its own uniform deal, share the ``mcmc`` steps.
    chains: int = 1
    #: Tien Gow: the chains lay down the other seats' face-down discards as the ε-greedy
    #: seats they model would (the tiles worth least), instead of any tiles at random.
    model_discards: bool = False
    #: Dou Di Zhu: a playout with at most this many cards in hands is solved exactly (0: off).
    endgame_cards: int = 0
    #: Dou Di Zhu: the endgame solver's node budget, past which it gives up.
    endgame_nodes: int = 20_000
    #: Dominoes: alpha-beta once the boneyard is empty and at most this many tiles are in hands.
    endgame_tiles: int = 7

    def __post_init__(self) -> None:
        """Clear errors for values no search can play with."""
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {self.epsilon!r}")
        if self.objective not in OBJECTIVES:
            raise ValueError(
                f"objective must be one of {', '.join(OBJECTIVES)}, not {self.objective!r}"
            )
        if self.infer < 0:
            raise ValueError(f"infer must be 0 (off) or a number of deals, not {self.infer!r}")
        if not 0.0 < self.model_epsilon <= 1.0:
            raise ValueError(
                f"model_epsilon must be above 0 and at most 1, not {self.model_epsilon!r}"
            )
        if self.mcmc < 0:
            raise ValueError(f"mcmc must be 0 (off) or a number of steps, not {self.mcmc!r}")
        if self.mcmc and self.infer:
            raise ValueError("infer and mcmc are two ways to weigh deals: set one of them")
        if self.chains < 1 or (self.mcmc and self.mcmc < 3 * self.chains):
            raise ValueError(
                f"chains must be at least 1 with 3 mcmc steps each, "
                f"not {self.chains!r} for {self.mcmc!r}"
            )
        if self.endgame_cards < 0:
            raise ValueError(
                f"endgame_cards must be 0 (off) or a number of cards, not {self.endgame_cards!r}"
            )

    def __reduce__(self) -> tuple[type[SearchSettings], tuple[Any, ...]]:
        # Rebuilt through the constructor: compiled, a frozen dataclass refuses the
        # attributes that unpickling would set on an empty instance.
        return type(self), tuple(getattr(self, f.name) for f in fields(self))
