"""The games the server hosts, for ``GET /api/games``: presets, options and bots."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import typing
from typing import Any, Final

import shedkit
from shedkit.core.options import options_to_dict
from shedkit.protocol.views import SERIALIZERS, Json
from shedkit.server.table import agents_for, default_agent, model_games, model_misfit

__all__ = ["GAME_TITLES", "games_catalogue"]

GAME_TITLES: Final = {
    "doudizhu": "Dou Di Zhu",
    "president": "President",
    "dominoes": "Dominoes",
    "tiengow": "Tien Gow",
}


def _option_fields(options: Any, game_players: int) -> list[Json]:
    """Each option of a game's options dataclass with its kind and choices.

    An option that is a word or a seat (``Literal[...] | int``) is a choice of the words
    and the ``game_players`` seats.
    """
    hints = typing.get_type_hints(type(options))
    out = []
    for f in dataclasses.fields(options):
        hint = hints[f.name]
        field: Json = {"name": f.name, "kind": "text"}
        arms = typing.get_args(hint)
        if type(None) in arms and len(arms) == 2:
            # An optional value: None means the rules' default reading (e.g. partners by count).
            field["nullable"] = True
            hint = next(a for a in arms if a is not type(None))
            if hint is bool:
                field["kind"] = "choice"
                field["choices"] = [None, True, False]
                out.append(field)
                continue
        if hint is bool:
            field["kind"] = "bool"
        elif set(arms) == {int} | {a for a in arms if typing.get_origin(a) is typing.Literal}:
            # A word or a seat (Tien Gow's first banker, "random" or 0-3): a choice of each.
            field["kind"] = "choice"
            words = [c for a in arms if a is not int for c in typing.get_args(a)]
            field["choices"] = [*words, *range(game_players)]
        elif hint is int:
            field["kind"] = "int"
        elif typing.get_origin(hint) is typing.Literal:
            field["kind"] = "choice"
            field["choices"] = list(typing.get_args(hint))
        out.append(field)
    return out


@functools.cache
def games_catalogue(models: tuple[str, ...] = ()) -> list[Json]:
    """The games the server can host, their presets with every option's value, and the bots.

    ``models`` are the names of the server's models (``Settings.model_dirs``): listed
    among a game's ``agents`` where they play it, and in its ``models`` with the presets
    they play (with the preset's options unchanged; a table of other options refuses
    them, ``bad_bot`` with the reason ``model_rules``).

    Built once per process and set of models: making every preset's game builds its
    action tables.
    """
    out = []
    for name in sorted(SERIALIZERS):
        if name not in shedkit.GAMES:
            continue
        game = shedkit.make(name)
        presets = {}
        playable = []
        module = importlib.import_module(shedkit.GAMES[name].__module__)
        for preset in getattr(module, "PRESETS", {"standard": {}}):
            made = shedkit.make(name, preset=preset)
            presets[preset] = options_to_dict(made.options)
            if models and name in model_games() and model_misfit(made) is None:
                playable.append(preset)
        out.append(
            {
                "name": name,
                "title": GAME_TITLES.get(name, name),
                "presets": presets,
                "options": _option_fields(game.options, game.num_players),
                # Seats at the table under the default options (an option may change it).
                "players": game.num_players,
                "agents": agents_for(name, models),
                "default_agent": default_agent(name),
                # The trained networks this server offers (`shedkit serve --model`), by the
                # name players choose them by, and the presets whose rules they play.
                "models": {m: {"presets": playable} for m in models} if playable else {},
            }
        )
    return out
