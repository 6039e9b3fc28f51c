"""The data of the web client's "How to play" page: the rules in a language and a move gallery.

``GET /api/howto/{game}?lang=xx`` answers `howto`: the players' rules of
[`shedkit.rules`][shedkit.rules] in that language and a gallery of examples. Every example
is found by the engine itself, as a legal move of a fixed scenario deal
(``new_deal(seed, hands=…)``), so the gallery can never disagree with the
rules the tables play: nothing here knows what a combination is.

- Dou Di Zhu: the first legal lead of each kind (``Move.kind``) from one
  landlord hand that holds them all; the kinds only the ``de-wikipedia``
  preset allows (``quad_solo``, ``quad_pair``) come from the same hand under
  that preset.
- President: the first legal lead of each kind, then the same with the joker
  (the ``all-options`` preset deals one, PRE-15/PRE-16).
- Tien Gow: the first legal lead of each combination (a civil and a military single)
  from one banker's hand that holds them all, then the Civil Supreme of ``hong-kong``
  and the two pairs of ``dominorules`` from the same hand (TG-10…12, TG-52, TG-60).
- Dominoes: the forced first tile of the classic game, the double-six
  (DOM-04), then an All Fives hand opened with a spinner (DOM-22) played until
  a tile goes on one of its cross sides, with the count after each play and
  the points it scored (DOM-23).

Each example is ``{"kind", "move", "cards", "preset"}`` (``cards`` as in the
table views, ``{"c", "t", "k"}``); Dominoes examples add ``count`` and
``points``. Galleries never change, so each is built once per process.
"""

from __future__ import annotations

import functools
from typing import Any, Final

import shedkit
from shedkit import rules as rulebook
from shedkit.doudizhu.combos import KINDS as DDZ_KINDS
from shedkit.president.combos import KINDS as PRE_KINDS
from shedkit.protocol.views import Json, cards_json

__all__ = ["HOWTO_GAMES", "gallery", "howto"]

#: Games with a "How to play" page: those whose rules ship with the package.
HOWTO_GAMES: Final = rulebook.GAMES

#: Every deal below is a scenario with a fixed seed: the same gallery in every process.
_SEED: Final = 2024

#: A Dou Di Zhu landlord hand (bare ranks) holding at least one of every combination.
_DDZ_HAND: Final = "33344455667789TTTTBR"

#: President hands of seat 0, who leads: every combination, then the same with the joker.
_PRE_HANDS: Final = {
    "standard": "3s 4s 5s 7c 7h 9s 9h 9d Qs Qh Qd Qc Kd",
    "all-options": "3s 4s 5s 7c 7h 9s 9h 9d Qs Qh Qd Qc Jk",
}

#: An All Fives deal for two: seat 0 opens with the double 5-5, the spinner.
_FIVES_HANDS: Final = ("5-5 2-5 1-1 6-6", "0-5 3-5 4-4 2-2")
_FIVES_SPINNER: Final = "5-5"
_CROSS_ENDS: Final = frozenset({2, 3})  # U and D, a spinner's cross sides (DOM-41)


#: A Tien Gow banker's hand holding every combination (TG-10…12): heaven's quad, the
#: Supreme and a pair of 1-5 (the Civil Supreme under ``hong-kong``, and with the pair of
#: 6-6 the two pairs of ``dominorules``).
_TG_HAND: Final = "6-6 6-6 3-6 4-5 2-4 1-2 1-5 1-5"
_TG_PRESETS: Final = ("standard", "hong-kong", "dominorules")
#: The gallery's order: the table of combinations (TG-10…12), then the presets' own.
_TG_ORDER: Final = (
    "single",
    "civil_pair",
    "military_pair",
    "supreme",
    "mixed_pair",
    "civil_triple",
    "military_triple",
    "quad",
    "wen_supreme",
    "two_pairs",
)


def _example(game: str, kind: str, move: Any, cards: Any, preset: str) -> Json:
    return {
        "kind": kind,
        "move": str(move),
        "cards": cards_json(game, list(cards)),
        "preset": preset,
    }


def _doudizhu() -> list[Json]:
    found: dict[str, Json] = {}
    for preset in ("standard", "de-wikipedia"):
        game = shedkit.make("doudizhu", preset=preset)
        state = game.new_deal(seed=_SEED, hands=[_DDZ_HAND, "A2", "A2"], landlord=0)
        for move in state.legal_moves():
            if move.kind in found:
                continue
            # The engine picks the physical cards of a play; read them from its history.
            after = state.clone()
            after.apply(move)
            found[move.kind] = _example("doudizhu", move.kind, move, after.history[-1][2], preset)
    return [found[kind] for kind in DDZ_KINDS if kind in found]


def _president() -> list[Json]:
    out: list[Json] = []
    for preset, hand in _PRE_HANDS.items():
        game = shedkit.make("president", preset=preset)
        seats = game.options.players
        hands: list[str | None] = [hand, *([None] * (seats - 1))]
        # The dealer sits before seat 0, so seat 0 leads the first trick (PRE-06).
        state = game.new_deal(seed=_SEED, hands=hands, dealer=seats - 1)
        joker = preset != "standard"
        found: dict[str, Json] = {}
        for move in state.legal_moves():
            if move.kind in found or move.kind == "pass" or move.has_joker != joker:
                continue
            found[move.kind] = _example("president", move.kind, move, move.cards, preset)
        out += [found[kind] for kind in PRE_KINDS if kind in found]
    return out


def _dominoes() -> list[Json]:
    out: list[Json] = []
    classic = shedkit.make("dominoes")
    state = classic.new_deal(seed=_SEED)
    lead = state.legal_moves()[0]
    out.append(_example("dominoes", lead.kind, lead, [lead.tile], "standard"))

    fives = shedkit.make("dominoes", preset="all-fives", players=len(_FIVES_HANDS))
    spinner = fives.parse_move(_FIVES_SPINNER).tile
    state = fives.new_deal(
        seed=_SEED, hands=list(_FIVES_HANDS), boneyard="", leader=0, lead_tile=spinner
    )
    while not state.is_over:
        legal = state.legal_moves()
        cross = [m for m in legal if m.end in _CROSS_ENDS]
        move = (cross or list(legal))[0]
        state.apply(move)
        if move.tile < 0:  # a pass or a draw shows no tile
            continue
        example = _example("dominoes", move.kind, move, [move.tile], "all-fives")
        example["count"] = state.count
        example["points"] = state.history[-1][3]
        out.append(example)
        if cross:
            break
    return out


def _tiengow() -> list[Json]:
    found: dict[tuple[str, int], Json] = {}
    for preset in _TG_PRESETS:
        # No special hand may end the scenario deal at once (TG-64): its leads are the point.
        game = shedkit.make("tiengow", preset=preset, special_hands=False)
        state = game.new_deal(seed=_SEED, hands=[_TG_HAND, None, None, None], banker=0)
        for move in state.legal_moves():
            key = (move.kind, move.suit)
            if key in found:
                continue
            after = state.clone()
            after.apply(move)
            found[key] = _example("tiengow", move.kind, move, after.history[-1][2], preset)
    return sorted(found.values(), key=lambda e: _TG_ORDER.index(e["kind"]))


_BUILDERS: Final = {
    "doudizhu": _doudizhu,
    "president": _president,
    "dominoes": _dominoes,
    "tiengow": _tiengow,
}


@functools.cache
def gallery(game: str) -> tuple[Json, ...]:
    """The examples of ``game``'s moves, found by the engine in fixed scenario deals."""
    if game not in _BUILDERS:
        raise rulebook.UnknownRuleError(
            f"no How to play page for game {game!r}; the games are {', '.join(HOWTO_GAMES)}"
        )
    return tuple(_BUILDERS[game]())


def howto(game: str, lang: str = "en") -> Json:
    """The "How to play" page of ``game`` in ``lang``: the rules' markdown, their IDs, the gallery.

    ``markdown`` is the rules without the ``{#anchor}`` marks of the headings;
    ``rules`` lists each rule's ``id``, ``title`` and ``anchor`` in text order.
    An unknown game or language raises a [`ShedkitError`][shedkit.core.errors.ShedkitError].
    """
    code = rulebook.check_lang(lang)
    name = game.strip().lower()
    examples = gallery(name)
    return {
        "game": name,
        "lang": code,
        "markdown": rulebook.strip_anchors(rulebook.text(name, code)),
        "rules": [
            {"id": r.id, "title": r.title, "anchor": r.anchor}
            for r in rulebook.rules(name, code).values()
        ],
        "combos": [dict(e, cards=[dict(c) for c in e["cards"]]) for e in examples],
    }
