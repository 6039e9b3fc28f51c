"""Playing levels, registered as agents for every game.

``easy`` is greedy with ε-random moves (between random and greedy),
``medium`` is greedy, ``hard`` is determinized search on one core (a budget
that fits about a second per move), ``expert`` the same search with a larger
budget over several processes, and in Dou Di Zhu exact endgames and a wider
margin before it overrides the greedy move; in President it draws its deals from ten
Metropolis chains on how likely they make the moves seen, in Tien Gow from two long chains
per process that also lay the other seats' face-down discards down as greedy would; in
Dominoes it plays for the side's win rather than its points (``objective="wp"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from shedkit.agents.base import make_agent, register_agent
from shedkit.agents.search.engine import EpsilonGreedy, SearchAgent
from shedkit.agents.search.knowledge import knowledge_for

__all__ = ["LEVELS", "Level", "make_level", "own_settings"]


@dataclass(frozen=True)
class Level:
    """One level's settings: ε for ``easy``, the search budget for the others.

    ``playouts`` maps a game's name to its playouts per move: the playout
    rates differ (greedy rollouts of Dou Di Zhu are the slowest), so each
    game gets the budget that fits ``seconds`` on one core; ``seconds`` also
    stops the search on a slower machine, except for measurements, which
    build the level with ``budget_only`` (`make_level`).
    """

    name: str
    epsilon: float = 0.0
    playouts: tuple[tuple[str, int], ...] = ()
    seconds: float | None = None
    workers: int = 1
    #: Per game, the level's own search settings: the root's (`ROOT_SETTINGS`) and the
    #: game's knowledge (`knowledge_for`), e.g. ``(("doudizhu", (("endgame_cards", 15),)),)``.
    settings: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()


#: The search settings that belong to the root (`SearchAgent`), not to the game's knowledge:
#: ``confidence``, the standard errors by which another move must beat the greedy one, and
#: ``exploration``, UCB1's constant.
ROOT_SETTINGS: Final = ("confidence", "exploration")

#: The levels, weakest first; no ``playouts`` means no search.
LEVELS: dict[str, Level] = {
    "easy": Level("easy", epsilon=0.5),
    "medium": Level("medium"),
    "hard": Level(
        "hard",
        playouts=(("doudizhu", 160), ("president", 450), ("dominoes", 1200), ("tiengow", 1200)),
        seconds=1.0,
    ),
    "expert": Level(
        "expert",
        playouts=(
            ("doudizhu", 640),
            ("president", 1800),
            ("dominoes", 4800),
            ("tiengow", 4800),
        ),
        seconds=4.0,
        workers=2,
        # Four times the playouts halve the noise: a margin of 2 standard errors asks
        # another move for the same lead over the greedy one as hard's margin of 1 does.
        settings=(
            ("doudizhu", (("confidence", 2.0), ("endgame_cards", 15))),
            # Deals from ten chains, by how likely they make the plays seen (`_pooled`).
            ("president", (("mcmc", 400), ("chains", 10))),
            # A hand is won or lost: the points it is won by matter to the match only.
            ("dominoes", (("objective", "wp"),)),
            # More playouts alone do not help in Tien Gow (what the others hold does): deals
            # from chains on the plays and discards seen, modelling the others as the greedy
            # bot (ε = 0.05) whose face-down discards are its cheapest tiles (`model_discards`):
            # two long chains per process, as ten short ones stayed near their uniform starts.
            (
                "tiengow",
                (("mcmc", 600), ("chains", 2), ("model_epsilon", 0.05), ("model_discards", True)),
            ),
        ),
    ),
}

#: Per game, what the levels' own settings stood for before levels had any (the search's
#: plain defaults): results written then replay with these.
PLAIN_SETTINGS: Final[dict[str, dict[str, Any]]] = {
    "doudizhu": {"confidence": 1.0, "endgame_cards": 0, "mcmc": 0, "chains": 1, "objective": "wp"},
    "president": {"confidence": 1.0, "mcmc": 0, "chains": 1},
    "dominoes": {"confidence": 1.0, "mcmc": 0, "chains": 1, "objective": "adp"},
    "tiengow": {
        "confidence": 1.0,
        "mcmc": 0,
        "chains": 1,
        "objective": "adp",
        "model_epsilon": 0.25,
        "model_discards": False,
    },
}


def own_settings(level: str, game_name: str) -> dict[str, Any]:
    """The search settings ``level`` plays ``game_name`` with beyond the defaults."""
    spec = LEVELS.get(level)
    if spec is None:
        raise ValueError(f"unknown level {level!r}; valid levels: {', '.join(LEVELS)}")
    return dict(dict(spec.settings).get(game_name, ()))


def make_level(
    level: str,
    game: Any,
    seed: int = 0,
    *,
    budget_only: bool = False,
    playouts: int | None = None,
    settings: Mapping[str, Any] | None = None,
    own: Mapping[str, Any] | None = None,
) -> Any:
    """Build the agent of ``level`` for ``game``.

    ``budget_only`` drops the level's clock, so that a search level plays
    exactly its playout budget whatever the machine's load and a seed gives
    the same moves every time (how strength is measured). ``playouts``
    replaces the level's budget for ``game``; ``settings`` change the search's
    knowledge of the game (`knowledge_for`) or its root, to test a variant against the
    level; ``own`` replaces the level's own settings (`own_settings`), to replay a game
    played when the level had others.
    """
    spec = LEVELS.get(level)
    if spec is None:
        raise ValueError(f"unknown level {level!r}; valid levels: {', '.join(LEVELS)}")
    if not spec.playouts:
        if playouts is not None or settings:
            raise ValueError(f"level {level!r} does not search: it takes no search settings")
        greedy = make_agent("greedy", game, seed)
        return EpsilonGreedy(greedy, spec.epsilon, seed, spec.name)
    budget = dict(spec.playouts).get(game.name) if playouts is None else playouts
    if budget is None:
        raise ValueError(f"level {level!r} has no search budget for {game.name}")
    base = own_settings(level, game.name) if own is None else dict(own)
    # The root's own settings go to the agent; the rest describe the game's knowledge.
    knowledge_settings = {**base, **(settings or {})}
    root_settings = {
        str(k): float(knowledge_settings.pop(k)) for k in ROOT_SETTINGS if k in knowledge_settings
    }
    return SearchAgent(
        game,
        knowledge_for(game, settings=knowledge_settings),
        seed,
        playouts=budget,
        seconds=None if budget_only else spec.seconds,
        workers=spec.workers,
        name=spec.name,
        **root_settings,
    )


def _factory(level: str) -> Any:
    def build(game: Any, seed: int) -> Any:
        return make_level(level, game, seed)

    return build


for _name in LEVELS:
    for _game in ("doudizhu", "president", "dominoes", "tiengow"):
        register_agent(_name, _game, _factory(_name))
