"""The Liars Edition's lines on a turn's card: the investigation card read aloud (with the
Liar! button on the card while its window is open), the call and what it showed, a card put
face up, the action begun, the passes done, a peek. Secrecy: whether a card was a lie is
told only when someone calls Liar!; a passed or peeked card is never named."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot import callbacks as cb
from bot.announce.plan import Buttons, Clock, seat_args, user_at
from bot.announce.turn_card import Line, LineOf, line
from bot.editions.liars.events import LIAR
from bot.payload import Card, Moment, Span, User
from engine.events import Event
from engine.liars import events as lev
from engine.liars.queries import current_play
from engine.liars.state import LIAR_WINDOW, Stage
from engine.state import Game


def _window_open(game: Game, turn: int) -> bool:
    play = current_play(game)
    return play is not None and play.turn == turn and play.stage is Stage.WINDOW


def read(e: lev.InvestigationRead, game: Game, log: tuple[Event, ...]) -> Line:
    """Read aloud (never whether it is true); by the GM when the reader's time ran out."""
    key = "liars.read_gm" if e.by_gm else "liars.read"
    args = {
        **seat_args(game, e.seat),
        "action": {"t": f"liars.action.{e.action.value}"},
        "window": Span.of(game.settings.liar_window),
    }
    return line(key if _window_open(game, e.turn) else f"{key}_closed", args)


def called(e: lev.LiarCalled, game: Game, log: tuple[Event, ...]) -> Line:
    args = {**seat_args(game, e.reader), "caller": User(user_at(game, e.seat))}
    return line("liars.called_lie" if e.lie else "liars.called_truth", args)


def exposed(e: lev.CardExposed, game: Game, log: tuple[Event, ...]) -> Line:
    """Public: the card now lies face up (the card's picture shows it too)."""
    key = "liars.exposed_gm" if e.by_gm else "liars.exposed"
    return line(key, {**seat_args(game, e.seat), "card": Card(e.card)})


def no_call(e: lev.NoLiarCalled, game: Game, log: tuple[Event, ...]) -> Line:
    return line("liars.no_call")


def begun(e: lev.ActionBegun, game: Game, log: tuple[Event, ...]) -> Line:
    """What the action asks now: a free move, a peek, or everyone's pass (in private)."""
    who = seat_args(game, e.seat)
    if e.stage is Stage.DONE:
        return line("liars.begun_none", who)
    if e.stage is not Stage.PASSING:
        return line(f"liars.begun_{e.action.value}", who)
    return line("liars.begun_pass", {**who, "time": Span.of(game.settings.refute_time)})


def passed(e: lev.CardsPassed, game: Game, log: tuple[Event, ...]) -> Line:
    return line("liars.passed")


def peeked(e: lev.Peeked, game: Game, log: tuple[Event, ...]) -> Line:
    target = User(user_at(game, e.target))
    return line(
        "liars.peeked", {**seat_args(game, e.seat), "target": target, "count": len(e.cards)}
    )


def renewed(e: lev.LiarsTimerRenewed, game: Game, log: tuple[Event, ...]) -> Line | None:
    """The bot was down when the stage's time ran out: it goes on with a fresh timer."""
    play = current_play(game)
    if play is None:
        return None
    args = {**seat_args(game, play.seat), "due_at": Moment.of(e.due)}
    return line(f"liars.renewed_{e.stage.value}", args)


LIARS_LINES: Mapping[type[Event], LineOf] = MappingProxyType(
    {
        lev.InvestigationRead: read,
        lev.LiarCalled: called,
        lev.CardExposed: exposed,
        lev.NoLiarCalled: no_call,
        lev.ActionBegun: begun,
        lev.CardsPassed: passed,
        lev.Peeked: peeked,
        lev.LiarsTimerRenewed: renewed,
    }
)


def liar_button(game_id: int, game: Game) -> Buttons:
    """The card's Liar! button while its investigation card's window is open."""
    play = current_play(game)
    table = game.table
    if play is None or table is None or play.stage is not Stage.WINDOW or table.turn != play.turn:
        return []
    data = cb.Callback(LIAR, game_id, (str(play.turn),)).encode()
    return [[{"t": "button.liar", "data": data}]]


def window_clock(game: Game) -> Clock | None:
    """The Liar! window runs from the moment the card showing it was delivered."""
    play = current_play(game)
    if play is None or play.stage is not Stage.WINDOW:
        return None
    return (LIAR_WINDOW, play.turn)
