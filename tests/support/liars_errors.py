"""For each rule error of the Liars Edition, a situation and the move refused with it."""

from __future__ import annotations

from collections.abc import Callable

from engine import commands as cmd
from engine.liars import commands as lcmd
from tests.support.liars import Liars


def liars_scenario(code: str) -> Callable[[], object] | None:
    """The refused move for `code`, or None if the code is not the edition's."""
    g = Liars(3)
    if code == "accuse_at_start":
        g.roll()
        return lambda: g.accuse(g.envelope)
    if code == "no_investigation_card":
        return lambda: g.read("move")
    if code == "not_that_action":
        g.hold(0, "pass")
        g.stay()
        return lambda: g.read("peek")
    if code == "not_your_call":
        g.hold(0, "pass")
        g.stay()
        g.read("pass")
        return lambda: g.call(1)
    if code == "not_your_choice":
        return lambda: g.run(lcmd.PassCard(actor=2, card=g.hand(2)[0]))
    if code == "investigation_pending":
        g.hold(0, "pass")
        g.stay()
        g.read("pass")
        return lambda: g.run(cmd.EndTurn(actor=1))
    if code == "investigation_first":
        g.stay()
        return lambda: g.run(cmd.EndTurn(actor=1))
    if code == "no_cards_to_peek":
        g.hold(0, "peek")
        g.stay()
        g.read("peek")
        g.fire_due()
        return lambda: g.run(lcmd.PeekAt(actor=1, seat=0))
    return None
