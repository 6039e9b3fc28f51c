"""Search bots: determinized Monte Carlo over ``game.determinize`` (one engine).

The engine (`engine`) knows no game; each game adds a small
`GameKnowledge` (its reward, its rollout policy, an optional
exact endgame solver) in a module of `knowledge`, over the deal sampler
the games share and one `SearchSettings` record. `levels` registers the
``easy``, ``medium``, ``hard`` and ``expert`` agents for every game.
"""

from shedkit.agents.search.engine import EpsilonGreedy, GameKnowledge, SearchAgent
from shedkit.agents.search.knowledge import knowledge_for
from shedkit.agents.search.levels import LEVELS

__all__ = ["LEVELS", "EpsilonGreedy", "GameKnowledge", "SearchAgent", "knowledge_for"]
