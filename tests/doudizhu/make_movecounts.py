"""Write ``tests/data/doudizhu_movecounts.json`` from the reference classifier.

Run ``python -m tests.doudizhu.make_movecounts`` after a deliberate change of the
rules; ``test_movecounts`` checks the engine's generator against the file.
"""

from __future__ import annotations

import collections
import json
import random
from pathlib import Path

import shedkit
from shedkit.doudizhu.combos import RANK_CHARS, card_rank
from shedkit.doudizhu.notation import parse_ranks
from tests.doudizhu.reference import Key, beats, reference_leads

PATH = Path(__file__).parent.parent / "data" / "doudizhu_movecounts.json"
PRESETS = ("standard", "de-wikipedia", "four-player")
LAST_PLAYS = (
    "5",
    "TT",
    "999",
    "777+3",
    "JJJ+44",
    "34567",
    "334455",
    "333444",
    "666777+9T",
    "3333+45",
    "8888",
    "BR",
)
HANDS_PER_PRESET = 6
#: Hands with planes, bombs, jokers and (de-wikipedia) 2s in runs, rare in random deals.
FIXED_HANDS = {
    "standard": ("333444555666789JQKBR", "3333444455667788992B", "3TTTJJJQQQKKKAAA22BR"),
    "de-wikipedia": ("QQQKKKAAA222345678BR", "3333444455667788992B"),
    "four-player": ("33334444455566778BBR", "5556667778889999TTTT", "33445566778899BBRR22"),
}
HAND_SIZE = 20


def hand_text(counts: list[int]) -> str:
    return "".join(RANK_CHARS[r] * n for r, n in enumerate(counts))


def by_kind(keys: set[Key]) -> dict[str, int]:
    return dict(sorted(collections.Counter(k[0] for k in keys).items()))


def build() -> list[dict[str, object]]:
    entries: list[dict[str, object]] = []
    for preset in PRESETS:
        game = shedkit.make("doudizhu", preset=preset)
        rng = random.Random(f"movecounts-{preset}")
        deck = list(game.deck)
        hands = [parse_ranks(text) for text in FIXED_HANDS[preset]]
        hands += [
            [card_rank(c) for c in rng.sample(deck, HAND_SIZE)] for _ in range(HANDS_PER_PRESET)
        ]
        for ranks in hands:
            counts = [0] * 15
            for r in ranks:
                counts[r] += 1
            leads = reference_leads(counts, game.options)
            responses = {}
            for text in LAST_PLAYS:
                if preset == "four-player" and text == "BR":
                    text = "BBRR"
                last = game.parse_move(text)
                lkey = (last.kind, last.base, last.kickers)
                responses[str(last)] = by_kind({k for k in leads if beats(k, lkey, game.options)})
            entries.append(
                {
                    "preset": preset,
                    "hand": hand_text(counts),
                    "leads": by_kind(leads),
                    "responses": responses,
                }
            )
    return entries


if __name__ == "__main__":
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(json.dumps(build(), indent=1) + "\n")
    print(f"wrote {PATH}")
