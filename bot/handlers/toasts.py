"""What a press at the table did, said in its toast: "You rolled 4.", "You stay in the
Kitchen.", "Turn ended." It is read from the events the press's command wrote (the first
that the presser's press itself caused), never from the command alone: a roll's toast has
the dice, a move's the room it reached."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.announce.table_prompt import square_label
from bot.delivery.payload import Card, User
from engine import events as ev
from engine.events import Event
from engine.liars import events as lev
from engine.state import Game
from engine.table.state import MoveKind

Toast = tuple[str, dict[str, Any]]
DONE: Toast = ("toast.done", {})


def press_toast(events: Sequence[Event], after: Game) -> Toast:
    """The toast of a press that wrote `events` (the game as they left it): the first event
    that says what the press did; "Done." when none does (a command that wrote nothing)."""
    for event in events:
        toast = _READERS.get(type(event))
        if toast is not None and (said := toast(event, after)) is not None:
            return said
    return DONE


def _rolled(e: ev.DiceRolled, after: Game) -> Toast:
    if len(e.dice) == 1:
        return "toast.rolled", {"total": sum(e.dice)}
    return "toast.rolled_many", {"dice": " + ".join(map(str, e.dice)), "total": sum(e.dice)}


def _moved(e: ev.TokenMoved, after: Game) -> Toast | None:
    """A walk or a passage of the presser's own token; a suggestion's move is the suggestion's."""
    if e.kind is MoveKind.PASSAGE:
        return "toast.passage", {"room": Card(str(e.to))}
    if e.kind is not MoveKind.WALK:
        return None
    if isinstance(e.to, str):
        return "toast.entered", {"room": Card(e.to)}
    return "toast.walked", {"square": square_label(e.to)}


def _stayed(e: ev.StayedToSuggest, after: Game) -> Toast:
    assert after.table is not None
    room = after.table.place_of(after.players[e.seat].role)
    return "toast.stayed", {"room": Card(str(room))}


def _suggested(e: ev.TableSuggestionMade, after: Game) -> Toast:
    cards = {"suspect": Card(e.suspect), "weapon": Card(e.weapon), "room": Card(e.room)}
    return "toast.suggested", cards


def _peeked(e: lev.Peeked, after: Game) -> Toast:
    return "toast.peeked", {"player": User(after.players[e.target].user)}


def _fixed(key: str) -> Callable[[Any, Game], Toast]:
    """A toast that needs nothing of its event."""
    return lambda e, after: (key, {})


_READERS: dict[type[Event], Callable[[Any, Game], Toast | None]] = {
    ev.DiceRolled: _rolled,
    ev.TokenMoved: _moved,
    ev.StayedToSuggest: _stayed,
    ev.ClueCardDrawn: _fixed("toast.clue_drawn"),
    ev.TableSuggestionMade: _suggested,
    ev.TurnEnded: _fixed("toast.turn_ended"),
    ev.PlayerReturned: _fixed("toast.back"),
    lev.InvestigationRead: _fixed("toast.investigation_read"),
    lev.LiarCalled: _fixed("toast.liar_called"),
    lev.CardExposed: _fixed("toast.card_exposed"),
    lev.PassChosen: _fixed("toast.pass_chosen"),
    lev.Peeked: _peeked,
}
