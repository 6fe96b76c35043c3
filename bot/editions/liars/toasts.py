"""What a press of the Liars Edition did, said in its toast (see `bot.announce.toasts`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.announce.toasts import Toast, ToastOf, fixed
from bot.payload import User
from engine.events import Event
from engine.liars import events as lev
from engine.state import Game


def peeked(e: lev.Peeked, after: Game) -> Toast:
    return "toast.peeked", {"player": User(after.players[e.target].user)}


LIARS_TOASTS: Mapping[type[Event], ToastOf] = MappingProxyType(
    {
        lev.InvestigationRead: fixed("toast.investigation_read"),
        lev.LiarCalled: fixed("toast.liar_called"),
        lev.CardExposed: fixed("toast.card_exposed"),
        lev.PassChosen: fixed("toast.pass_chosen"),
        lev.Peeked: peeked,
    }
)
