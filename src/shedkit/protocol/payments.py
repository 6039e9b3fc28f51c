"""Who paid whom in a finished Tien Gow hand, item by item (TG-30…34, TG-61…64).

The engine settles a hand as one net amount a seat (`State.returns`); a player
reads it better as the payments it is made of: each loser with the winner, the
refunds, the bonuses of TG-61 paid during the hand. `tiengow_payments` lists
them from a seat's (or a spectator's) view of the finished hand, each with its
base and the factors that multiplied it, as codes and numbers for the client
to word. Every fact it reads is public: units, the banker, the last trick, the
face-up leads. The items of a hand add up to its returns.
"""

from __future__ import annotations

from typing import Any, Final

from shedkit.tiengow.combos import (
    QUAD,
    SINGLE_CIVIL,
    SINGLE_MILITARY,
    SUPREME,
    SUPREME_KINDS,
    WEN_SUPREME,
    Move,
)
from shedkit.tiengow.movegen import CAPTURE_KIND, WEN_KIND
from shedkit.tiengow.rules import SPECIAL_PAYMENT
from shedkit.tiengow.view import View

__all__ = ["tiengow_payments"]

Json = dict[str, Any]

#: ``1-2`` and ``2-4`` (TG-62, TG-63).
_YAO: Final = SUPREME_KINDS[1]
_SIX: Final = SUPREME_KINDS[0]


def _item(
    payer: int, payee: int, amount: int, reason: str, base: int, factors: list[Json], **more: Any
) -> Json:
    return {
        "payer": payer,
        "payee": payee,
        "amount": amount,
        "reason": reason,
        "base": base,
        "factors": factors,
        **more,
    }


def _bonuses(view: View) -> list[Json]:
    """TG-61: the bonus of each trick but the last led with a Supreme, a Civil Supreme or a quad."""
    opts = view.options
    n = view.num_players
    m = view.multiplier
    out: list[Json] = []
    # The tricks of the finished hand but its last, each led by the first of its n moves in
    # the history (TG-62: the last trick pays no bonus).
    for i, (_, winner, _) in enumerate(view.tricks[:-1]):
        lead: Move = view.history[i * n][1]
        if lead.cls in (SUPREME, WEN_SUPREME):
            amount, code = opts.supreme_bonus, "supreme_bonus"
        elif lead.cls == QUAD:
            amount, code = opts.quad_bonus, "quad_bonus"
        else:
            continue
        if amount <= 0:
            continue
        for payer in range(n):
            if payer == winner:
                continue
            with_banker = view.banker in (payer, winner) and m > 1
            factors = [{"code": "banker", "n": m}] if with_banker else []
            paid = amount * (m if with_banker else 1)
            out.append(_item(payer, winner, paid, code, amount, factors, trick=i))
    return out


def _special(view: View, seat: int, factor: int) -> list[Json]:
    """TG-64: each other seat pays 5 times the hand's factor, the banker's at its factor too."""
    m = view.multiplier
    out: list[Json] = []
    for payer in range(view.num_players):
        if payer == seat:
            continue
        factors = [{"code": "special", "n": factor}]
        paid = SPECIAL_PAYMENT * factor
        if view.banker in (payer, seat) and m > 1:
            factors.append({"code": "banker", "n": m})
            paid *= m
        out.append(_item(payer, seat, paid, "special", SPECIAL_PAYMENT, factors))
    return out


def _finish(view: View) -> tuple[list[Json], int]:
    """The finishing factors of the last trick (TG-62) and the seat caught leading 1-2 (TG-63)."""
    opts = view.options
    lead = view.trick[0][1]
    final = view.high
    assert final is not None
    factors: list[Json] = []
    if final.cls in (SUPREME, WEN_SUPREME) and opts.supreme_finish_multiplier > 1:
        factors.append({"code": "supreme_finish", "n": opts.supreme_finish_multiplier})
    if final.cls == QUAD and opts.quad_finish_multiplier > 1:
        factors.append({"code": "quad_finish", "n": opts.quad_finish_multiplier})
    led = lead.kinds[0] if lead.cls in (SINGLE_CIVIL, SINGLE_MILITARY) else -1
    yao = led == _YAO or (opts.wen_supreme and led == WEN_KIND)
    winner = view.winner
    if yao and winner == view.leader and opts.yao_finish_multiplier > 1:
        factors.append({"code": "yao_finish", "n": opts.yao_finish_multiplier})
    capturer = -1
    if opts.yao_capture_multiplier > 0 and yao and winner != view.leader:
        caught = final.kinds[0]
        if (led, caught) in ((_YAO, _SIX), (WEN_KIND, CAPTURE_KIND)):
            capturer = view.leader
    return factors, capturer


def tiengow_payments(view: View) -> list[Json]:
    """Each payment of a finished hand: ``payer``, ``payee``, ``amount``, ``reason``, ``base``
    and ``factors`` (``[{"code", "n"}]``, multiplied in order); empty before the end.

    ``reason`` is ``units`` (a loser with 0 to 4 units pays the winner, TG-31; 4 units pay
    nothing), ``refund`` (the winner pays back a loser with 5 units or more, or nothing
    when refunds are off: ``no_refund``), ``capture`` (TG-63: the caught leader pays what
    the loser ``for`` owes), ``special`` (TG-64), ``supreme_bonus`` and ``quad_bonus``
    (TG-61, with the ``trick`` they were paid for). Losers' items carry their ``units``.
    """
    if not view.is_over or view.winner is None:
        return []
    out = _bonuses(view)
    if view.special is not None:
        return out + _special(view, *view.special)
    opts = view.options
    n = view.num_players
    winner = view.winner
    m = view.multiplier
    banker = view.banker
    finish, capturer = _finish(view)
    slam = all(view.units[s] == 0 for s in range(n) if s != winner)
    for loser in range(n):
        if loser == winner:
            continue
        t = view.units[loser]
        if t >= 5:
            if not opts.over_par_refund:
                out.append(_item(winner, loser, 0, "no_refund", 0, [], units=t))
                continue
            # TG-32: a refund the banker owes as winner is multiplied, one owed to a losing
            # banker is not.
            factors = [{"code": "banker", "n": m}] if banker == winner and m > 1 else []
            refund = (t - 4) * (m if factors else 1)
            out.append(_item(winner, loser, refund, "refund", t - 4, factors, units=t))
            continue
        base = opts.zero_trick_payment if t == 0 else 4 - t
        factors = []
        owed = base
        if base and banker in (winner, loser) and m > 1:
            factors.append({"code": "banker", "n": m})
            owed *= m
        if base:
            for f in finish:
                factors.append(f)
                owed *= f["n"]
            if slam and opts.slam_multiplier > 1:
                factors.append({"code": "slam", "n": opts.slam_multiplier})
                owed *= opts.slam_multiplier
        if capturer >= 0 and base:
            factors.append({"code": "capture", "n": opts.yao_capture_multiplier})
            owed *= opts.yao_capture_multiplier
            item = _item(capturer, winner, owed, "capture", base, factors, units=t)
            item["for"] = loser
            out.append(item)
            continue
        out.append(_item(loser, winner, owed, "units", base, factors, units=t))
    return out
