"""A rule-based Dou Di Zhu bot, ``greedy``: plans its hand, plays the plan, keeps bombs.

The bot sees only a [`View`][shedkit.doudizhu.view.View]. Its one idea is a
*plan*: the hand split into combinations needing the fewest leads. Bombs and
the rocket stay out of the plan (they are kept to win tricks back); the rest is
searched for chains, pair chains and planes, and what is left becomes trios
(carrying the weakest solos or pairs as kickers), pairs and solos.

- **Bidding**: a strength score from jokers, 2s, aces, bombs and the plan's
  length picks a bid of 0…3; the bot bids it if it is still legal, else passes.
- **Leading**: the plan's chains and planes go first, then trios, then the
  lowest pairs and solos; combinations nobody can beat are saved for the end
  game, and solos (pairs) are avoided while an opponent holds one (two) cards.
  A peasant whose partner, next to play, holds one (two) cards leads its
  lowest solo (pair) for him.
- **Responding**: never over a partner; over an opponent, the cheapest move
  that shortens the plan without breaking a bomb (any such move once an
  opponent is nearly out), with a bomb only when an opponent is close to
  going out or the bomb leaves a single lead to go out with.
- A move that empties the hand is always taken.

The bot is deterministic: the same view gives the same move. ``seed`` is
accepted for the agent factory signature only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from shedkit.agents.base import register_agent
from shedkit.core.compiled import mypyc_attr
from shedkit.doudizhu.actions import LIMITS
from shedkit.doudizhu.combos import BJ, NRANKS, RJ, TWO, Move, card_rank
from shedkit.doudizhu.options import Options
from shedkit.doudizhu.view import View

if TYPE_CHECKING:
    from shedkit.doudizhu.rules import DouDizhu

__all__ = ["GreedyDouDizhu", "Plan", "bid_value", "hand_counts", "hand_strength", "make_plan"]

Counts = tuple[int, ...]
# A chain of the plan as (width, lowest rank, groups): width 1 chain, 2 pair chain, 3 plane.
Chain = tuple[int, int, int]
# (plays, weakness, chains): fewer plays first, then a plan with higher groups.
Found = tuple[int, int, tuple[Chain, ...]]

_RUN_KIND: Final = {1: "chain", 2: "pair_chain", 3: "plane"}
_RUN_LIMITS: Final = {1: LIMITS.chain, 2: LIMITS.pair_chain, 3: LIMITS.plane}
_RUN_KINDS: Final = frozenset(("chain", "pair_chain", "plane", "plane_solo", "plane_pair"))
_TRIO_KINDS: Final = frozenset(("trio", "trio_solo", "trio_pair"))
_QUAD_KINDS: Final = frozenset(("quad_two_solos", "quad_two_pairs", "quad_solo", "quad_pair"))

# An opponent this close to going out makes the bot spend bombs and break its plan.
_BOMB_THREAT: Final = 4
_BREAK_THREAT: Final = 5
# Beyond this many search entries the per-agent caches are dropped (a few tens of MB at most).
_CACHE_LIMIT: Final = 50_000
# Plans are rebuilt thousands of times a second in search rollouts: their most common
# parts are made once (moves are immutable, and compared by value).
_SOLOS: Final = tuple(Move("solo", r, (r,), ()) for r in range(NRANKS))
_PAIRS: Final = tuple(Move("pair", r, (r, r), ()) for r in range(NRANKS))


@dataclass(frozen=True, slots=True)
class Plan:
    """A hand split into combinations: ``parts`` to lead in turn, ``bombs`` kept aside."""

    parts: tuple[Move, ...]
    bombs: tuple[Move, ...]
    weakness: int

    @property
    def plays(self) -> int:
        """Leads the non-bomb part of the hand needs."""
        return len(self.parts)

    @property
    def cost(self) -> tuple[int, int, int]:
        """Ordering key, lower is better: more bombs kept, fewer plays, then stronger groups."""
        return (-len(self.bombs), len(self.parts), self.weakness)


def hand_counts(cards: tuple[int, ...] | list[int]) -> list[int]:
    """Cards per rank (15 entries) of a list of card ids."""
    counts = [0] * NRANKS
    for card in cards:
        counts[card_rank(card)] += 1
    return counts


def _pairable(rank: int, decks: int) -> bool:
    # Jokers pair only in the two-pack game (DDZ-42).
    return rank < BJ or decks == 2


def _split_bombs(counts: Counts, decks: int) -> tuple[list[int], list[Move]]:
    """The hand without its bombs and rocket, and those as moves (lowest first, rocket last)."""
    rest = list(counts)
    bombs = []
    for r in range(BJ):
        if rest[r] >= 4:
            bombs.append(Move("bomb", r, (r,) * rest[r], length=1))
            rest[r] = 0
    if rest[BJ] >= decks and rest[RJ] >= decks:
        bombs.append(Move("rocket", RJ, (BJ,) * decks + (RJ,) * decks, length=1))
        rest[BJ] -= decks
        rest[RJ] -= decks
    # Weaker bombs first: fewer cards, then lower rank; the rocket beats all.
    bombs.sort(key=lambda m: (m.kind == "rocket", len(m.base), m.rank))
    return rest, bombs


class _Planner:
    """Searches the chain choices of a hand; memoized per agent (hands recur all deal)."""

    def __init__(self, opts: Options) -> None:
        self.decks = opts.decks
        self.nchain = 13 if opts.two_in_chains else 12
        self.limits = [0, *(opts.chain_limit(w) for w in (1, 2, 3))]
        self.memo: dict[tuple[int, Counts, int], Found] = {}
        self.plans: dict[Counts, Plan] = {}

    def plan(self, counts: Counts) -> Plan:
        """The plan of a hand given as rank counts."""
        found = self.plans.get(counts)
        if found is None:
            if len(self.memo) > _CACHE_LIMIT:
                self.plans.clear()
                self.memo.clear()
            found = self.plans[counts] = self._build(counts)
        return found

    def _build(self, counts: Counts) -> Plan:
        rest, bombs = _split_bombs(counts, self.decks)
        _, weakness, chains = self._search(0, tuple(rest), 0)
        # The search's kicker count is an estimate: the plan's length is the real one.
        return Plan(tuple(self._parts(rest, chains)), tuple(bombs), weakness)

    def _search(self, pos: int, c: Counts, cap: int) -> Found:
        """Best chain set using ranks ``pos…`` of ``c``; ``cap`` = kicker slots of planes so far.

        Chains are chosen from the lowest rank up: at the lowest rank left the
        search either starts a chain there or leaves the rank out of chains for
        good, so every set of chains is seen once.
        """
        key = (pos, c, cap)
        found = self.memo.get(key)
        if found is not None:
            return found
        nchain = self.nchain
        # A rank where no chain can start only passes the search on to the next rank:
        # go straight to the lowest rank where one can (the same result, fewer calls).
        starts = self._starts(c) >> pos
        r = pos + (starts & -starts).bit_length() - 1 if starts else nchain
        if r >= nchain:
            found = self._leaf(c, cap)
        else:
            found = self._search(r + 1, c, cap)
            for width in (1, 2, 3):
                if c[r] < width:
                    break
                kmin, kmax = _RUN_LIMITS[width]
                limit = self.limits[width]
                top = r
                while top < limit and c[top] >= width and top - r < kmax:
                    top += 1
                for k in range(kmin, top - r + 1):
                    cc = list(c)
                    for q in range(r, r + k):
                        cc[q] -= width
                    sub = self._search(r, tuple(cc), cap + (k if width == 3 else 0))
                    cand = (sub[0] + 1, sub[1] - (r + k - 1), ((width, r, k), *sub[2]))
                    if cand[:2] < found[:2]:
                        found = cand
        self.memo[key] = found
        return found

    def _starts(self, c: Counts) -> int:
        """The ranks (a bit mask) where a chain, pair chain or plane of its shortest length fits."""
        m1 = m2 = m3 = 0
        for q in range(self.nchain):
            n = c[q]
            if n:
                bit = 1 << q
                m1 |= bit
                if n >= 2:
                    m2 |= bit
                    if n >= 3:
                        m3 |= bit
        out = 0
        for width, m in ((1, m1), (2, m2), (3, m3)):
            m &= (1 << self.limits[width]) - 1
            run = m
            for shift in range(1, _RUN_LIMITS[width][0]):
                run &= m >> shift
            out |= run
        return out

    def _leaf(self, c: Counts, cap: int) -> Found:
        """Plays and weakness of what the chains leave: trios carry the lowest solos/pairs."""
        trios = high = weakness = 0
        small: list[int] = []
        for r in range(NRANKS):
            n = c[r]
            if not n:
                continue
            if n == 3:
                trios += 1
                weakness -= r
            elif r >= TWO:
                groups = 1 if n == 1 or _pairable(r, self.decks) else n
                high += groups
                weakness -= r * groups
            else:
                small.append(r)
        absorbed = min(trios + cap, len(small))
        left = small[absorbed:]
        weakness -= sum(left)
        return (trios + high + len(left), weakness, ())

    def _parts(self, rest: list[int], chains: tuple[Chain, ...]) -> list[Move]:
        """The plan's combinations, with kickers attached to planes and trios."""
        c = list(rest)
        runs = []
        for width, lo, k in chains:
            base = tuple(r for r in range(lo, lo + k) for _ in range(width))
            runs.append((width, lo, k, base))
            for r in range(lo, lo + k):
                c[r] -= width
        solos = [r for r in range(TWO) if c[r] == 1]
        pairs = [r for r in range(TWO) if c[r] == 2]
        parts: list[Move] = []
        for width, lo, k, base in runs:
            top = lo + k - 1
            if width != 3:
                parts.append(Move(_RUN_KIND[width], top, base, (), k))
            elif len(solos) >= k and k <= LIMITS.plane_solo[1] and len(solos) >= len(pairs):
                kick, solos = tuple(solos[:k]), solos[k:]
                parts.append(Move("plane_solo", top, base, kick, k))
            elif len(pairs) >= k and k <= LIMITS.plane_pair[1]:
                kick = tuple(r for r in pairs[:k] for _ in (0, 1))
                pairs = pairs[k:]
                parts.append(Move("plane_pair", top, base, kick, k))
            else:
                parts.append(Move("plane", top, base, (), k))
        for r in range(TWO + 1):
            if c[r] != 3:
                continue
            base = (r, r, r)
            # The weakest kicker: whichever of the lowest solo and lowest pair is lower.
            if solos and (not pairs or solos[0] <= pairs[0]):
                parts.append(Move("trio_solo", r, base, (solos.pop(0),)))
            elif pairs:
                p = pairs.pop(0)
                parts.append(Move("trio_pair", r, base, (p, p)))
            else:
                parts.append(Move("trio", r, base, ()))
        parts += [_PAIRS[r] for r in pairs]
        parts += [_SOLOS[r] for r in solos]
        for r in range(TWO, NRANKS):
            n = c[r]
            if n == 3:
                continue  # a trio of 2s, placed above
            if n == 2 and _pairable(r, self.decks):
                parts.append(_PAIRS[r])
            else:
                parts += [_SOLOS[r]] * n
        return parts


def make_plan(counts: list[int] | Counts, opts: Options) -> Plan:
    """The plan of a hand (rank counts) under ``opts``, without any cache."""
    return _Planner(opts).plan(tuple(counts))


def hand_strength(counts: list[int] | Counts, opts: Options) -> float:
    """How good a hand is for the landlord, before the kitty: high cards, bombs, few plays.

    The weights are a rule of thumb (an ace 1, a 2 2, the jokers 3 and 4, a
    bomb 5, the rocket 8); `bid_value` turns the score into a bid.
    """
    rest, bombs = _split_bombs(tuple(counts), opts.decks)
    score = 0.0
    for bomb in bombs:
        score += 8.0 if bomb.kind == "rocket" else 5.0 + (len(bomb.base) - 4)
    score += 4.0 * rest[RJ] + 3.0 * rest[BJ] + 2.0 * rest[TWO] + 1.0 * rest[11]
    plan = make_plan(counts, opts)
    # A hand that needs many leads loses tempo; the typical dealt hand needs about 7.
    score -= 0.5 * (plan.plays - (7 if opts.players == 3 else 10))
    return score


def bid_value(counts: list[int] | Counts, opts: Options) -> int:
    """The bid (0 = pass) a hand is worth."""
    score = hand_strength(counts, opts)
    # Four-player hands are bigger and richer in bombs, so the bar is higher
    # (a guess: there the landlord won about 60 % of self-play deals at any score).
    scale = 1.0 if opts.players == 3 else 1.8
    # Measured on three-player self-play with forced landlords: a score of 6
    # wins about 57 % of deals as landlord, 8 about 60 %, 11 about 73 %.
    if score >= 11 * scale:
        return 3
    if score >= 8 * scale:
        return 2
    if score >= 6 * scale:
        return 1
    return 0


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyDouDizhu:
    """The ``greedy`` Dou Di Zhu bot: plans its hand and plays the plan (see the module doc)."""

    name = "greedy"

    def __init__(self, game: DouDizhu | None = None, seed: int = 0) -> None:
        self.seed = seed  # unused: every choice is a deterministic rule
        self._planners: dict[Options, _Planner] = {}
        if game is not None:
            self._planner(game.options)

    def _planner(self, opts: Options) -> _Planner:
        planner = self._planners.get(opts)
        if planner is None:
            planner = self._planners[opts] = _Planner(opts)
        return planner

    def plan_after(self, view: View, move: Move) -> Plan:
        """The plan of the seat's hand once ``move`` is played (the search ranks kickers so)."""
        return self._planner(view.options).plan(_minus(hand_counts(view.hand), move))

    def act(self, view: View) -> Move:
        """Return one of ``view.legal_moves``."""
        legal = view.legal_moves
        if not legal:
            raise ValueError("no legal move in this view: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        if view.phase == "auction":
            return self._bid(view)
        hand_size = len(view.hand)
        winning = [m for m in legal if m.size == hand_size]
        if winning:
            # Going out with a bomb doubles the stake; any other reading wins the same.
            return max(winning, key=lambda m: m.is_bomb)
        if view.last_play is None:
            return self._lead(view)
        return self._respond(view)

    # -- auction ---------------------------------------------------------------

    def _bid(self, view: View) -> Move:
        want = bid_value(hand_counts(view.hand), view.options)
        bids = [m for m in view.legal_moves if m.kind == "bid" and m.rank <= want]
        if bids:
            return max(bids, key=lambda m: m.rank)
        return next(m for m in view.legal_moves if m.kind == "pass")

    # -- play ------------------------------------------------------------------

    def _opponents(self, view: View) -> list[int]:
        return [s for s in range(view.num_players) if not view.is_partner(s)]

    def _unseen(self, view: View, counts: list[int]) -> list[int]:
        """Cards per rank not in this hand and not yet played: the opponents' (and partner's)."""
        decks = view.options.decks
        unseen = [4 * decks] * BJ + [decks, decks]
        for r in range(NRANKS):
            unseen[r] -= counts[r]
        for cards in view.played:
            for card in cards:
                unseen[card_rank(card)] -= 1
        return unseen

    def _lead(self, view: View) -> Move:
        legal = {m: m for m in view.legal_moves}
        counts = hand_counts(view.hand)
        plan = self._planner(view.options).plan(tuple(counts))
        opponents = self._opponents(view)
        opp_min = min(view.cards_left[s] for s in opponents)
        opp_max = max(view.cards_left[s] for s in opponents)
        assert view.seat is not None
        seat = view.seat
        nxt = (seat + 1) % view.num_players
        if nxt not in opponents:
            # A partner about to go out: feed him the lowest solo or pair he may beat.
            want = {1: "solo", 2: "pair"}.get(view.cards_left[nxt])
            if want is not None:
                low = [m for m in legal if m.kind == want]
                if low:
                    return min(low, key=lambda m: m.rank)
        parts = list(plan.parts)
        bombs = list(plan.bombs)
        if not all(p in legal for p in parts + bombs) or not parts + bombs:
            return self._fallback_lead(view, counts)
        unseen = self._unseen(view, counts)
        safe = [p for p in parts if self._safe(p, unseen, opp_max, view.options)]
        unsafe = [p for p in parts if p not in safe]
        if len(unsafe) <= 1 and (safe or bombs):
            # End game: take the tricks nobody can answer, keep the last lead for the rest.
            if safe:
                return legal[max(safe, key=lambda m: (m.size, -m.rank))]
            if not unsafe or opp_min <= _BOMB_THREAT:
                return legal[bombs[0]]

        def order(part: Move) -> tuple[int, int, int]:
            if part.kind in _RUN_KINDS:
                group = 0
            elif part.kind in _TRIO_KINDS:
                group = 1
            else:
                group = 2
            # An opponent with n cards may go out on a lead of n cards: lead those last.
            if (part.kind == "solo" and opp_min == 1) or (part.kind == "pair" and opp_min == 2):
                group = 3
            return (group, part.rank, -part.size)

        best = min(unsafe, key=order)
        if order(best)[0] == 3:
            if safe:
                # Saving sure tricks for the end is moot if an opponent goes out first.
                return legal[max(safe, key=lambda m: (m.size, -m.rank))]
            # Only dangerous leads left: the highest of them is the least likely to be beaten.
            best = max((p for p in unsafe if p.kind == best.kind), key=lambda m: m.rank)
        return legal[best]

    def _fallback_lead(self, view: View, counts: list[int]) -> Move:
        """Any lead leaving the best plan (only when the plan's parts are not legal moves)."""
        planner = self._planner(view.options)
        return min(
            view.legal_moves,
            key=lambda m: (*planner.plan(_minus(counts, m)).cost, m.rank),
        )

    def _safe(self, part: Move, unseen: list[int], opp_max: int, opts: Options) -> bool:
        """True if no hand made of unseen cards can beat ``part`` without a bomb."""
        if part.kind == "rocket":
            return True
        decks = opts.decks
        if part.kind == "bomb":
            size = len(part.base)
            if unseen[BJ] >= decks and unseen[RJ] >= decks:
                return False
            return not any(
                unseen[r] > size or (unseen[r] == size and r > part.rank) for r in range(BJ)
            )
        if opp_max < part.size:
            return True
        kind = part.kind
        rank = part.rank
        if kind == "solo":
            return not any(unseen[r] for r in range(rank + 1, NRANKS))
        if kind == "pair":
            return not any(unseen[r] >= 2 and _pairable(r, decks) for r in range(rank + 1, NRANKS))
        if kind in _TRIO_KINDS:
            return not any(unseen[r] >= 3 for r in range(rank + 1, TWO + 1))
        if kind in _QUAD_KINDS:
            return not any(unseen[r] >= 4 for r in range(rank + 1, BJ))
        if kind in _RUN_KINDS:
            width = {"chain": 1, "pair_chain": 2}.get(kind, 3)
            run = 0
            for r in range(opts.chain_limit(width)):
                run = run + 1 if unseen[r] >= width else 0
                if run >= part.length and r > rank:
                    return False
            return True
        return False

    def _respond(self, view: View) -> Move:
        legal = view.legal_moves
        pass_move = next(m for m in legal if m.kind == "pass")
        if view.is_partner(view.last_player):
            # Never fight a partner: his trick is already ours.
            return pass_move
        counts = hand_counts(view.hand)
        planner = self._planner(view.options)
        before = planner.plan(tuple(counts))
        opponents = self._opponents(view)
        opp_min = min(view.cards_left[s] for s in opponents)
        plays = [m for m in legal if m.kind != "pass" and not m.is_bomb]
        scored = [(planner.plan(_minus(counts, m)), m) for m in plays]
        keep = [(p, m) for p, m in scored if len(p.bombs) >= len(before.bombs)]
        if keep:
            plan, move = min(keep, key=lambda pm: (*pm[0].cost, pm[1].rank))
            threat = opp_min <= _BREAK_THREAT
            if plan.plays < before.plays or threat:
                if threat and move.kind in ("solo", "pair") and opp_min <= 2:
                    move = self._highest_needed(view, counts, [m for _, m in keep], move)
                return move
        bombs = [m for m in legal if m.is_bomb]
        if bombs:
            best = min(
                bombs,
                key=lambda m: (
                    *planner.plan(_minus(counts, m)).cost,
                    m.kind == "rocket",
                    len(m.base),
                    m.rank,
                ),
            )
            after = planner.plan(_minus(counts, best))
            if opp_min <= _BOMB_THREAT or after.plays <= 1:
                return best
        return pass_move

    def _highest_needed(
        self, view: View, counts: list[int], candidates: list[Move], chosen: Move
    ) -> Move:
        """Against an opponent about to go out: the lowest solo/pair no unseen card beats."""
        unseen = self._unseen(view, counts)
        same = sorted((m for m in candidates if m.kind == chosen.kind), key=lambda m: m.rank)
        for m in same:
            if self._safe(m, unseen, NRANKS * 8, view.options):
                return m
        return same[-1] if same else chosen


def _minus(counts: list[int], move: Move) -> Counts:
    out = list(counts)
    for r in move.base:
        out[r] -= 1
    for r in move.kickers:
        out[r] -= 1
    return tuple(out)


register_agent("greedy", "doudizhu", GreedyDouDizhu)
