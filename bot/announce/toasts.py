"""What a press at the table did, said in its toast: "You rolled 4.", "You stay in the
Kitchen.", "Turn ended." It is read from the events the press's command wrote (the first
that the presser's press itself caused), never from the command alone: a roll's toast has
the dice, a move's the room it reached."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from bot.payload import Card
from bot.render.board_text import square_label
from engine import events as ev
from engine.events import Event
from engine.state import Game
from engine.table.queries import table_of
from engine.table.state import MoveKind

Toast = tuple[str, dict[str, Any]]
ToastOf = Callable[[Any, Game], Toast | None]
"""A press's toast read from one event it wrote (None: this event does not say)."""
DONE: Toast = ("toast.done", {})


def press_toast(
    events: Sequence[Event], after: Game, own: Mapping[type[Event], ToastOf] | None = None
) -> Toast:
    """The toast of a press that wrote `events` (the game as they left it): the first event
    that says what the press did; "Done." when none does (a command that wrote nothing).
    `own`: the edition's toasts of its own events (`Edition.toasts`)."""
    for event in events:
        toast = (own or {}).get(type(event)) or READERS.get(type(event))
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
    room = table_of(after).place_of(after.players[e.seat].role)
    return "toast.stayed", {"room": Card(str(room))}


def _suggested(e: ev.TableSuggestionMade, after: Game) -> Toast:
    cards = {"suspect": Card(e.suspect), "weapon": Card(e.weapon), "room": Card(e.room)}
    return "toast.suggested", cards


def fixed(key: str) -> Callable[[Any, Game], Toast]:
    """A toast that needs nothing of its event."""
    return lambda e, after: (key, {})


READERS: Mapping[type[Event], ToastOf] = MappingProxyType(  # every table edition's
    {
        ev.DiceRolled: _rolled,
        ev.TokenMoved: _moved,
        ev.StayedToSuggest: _stayed,
        ev.TableSuggestionMade: _suggested,
        ev.TurnEnded: fixed("toast.turn_ended"),
        ev.PlayerReturned: fixed("toast.back"),
    }
)
