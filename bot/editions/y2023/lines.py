"""The 2023 edition's lines on a turn's card: a look at the card lying in a room (never which
card), the clue card read aloud, a card revealed to everyone, a card shown at random
(never which)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.announce.plan import seat_args, user_at
from bot.announce.turn_card import Line, LineOf, line
from bot.payload import Card, User
from engine.events import Event
from engine.state import Game
from engine.y2023 import events as yev
from engine.y2023.cards import CLUES, ClueKind


def looked(e: yev.PlacedCardSeen, game: Game, log: tuple[Event, ...]) -> Line:
    return line("y2023.peeked", {**seat_args(game, e.seat), "room": Card(e.room)})


def clue_drawn(e: yev.ClueCardDrawn, game: Game, log: tuple[Event, ...]) -> Line:
    clue = CLUES[e.clue]
    args = seat_args(game, e.seat)
    if clue.kind is ClueKind.REVEAL:
        assert clue.card is not None
        return line("y2023.clue_reveal", {**args, "card": Card(clue.card)})
    return line("y2023.clue_left_shows", args)


def revealed(e: yev.ClueRevealed, game: Game, log: tuple[Event, ...]) -> Line:
    """The holder shows the card to everyone (then takes it back)."""
    if e.seat is None:
        return line("y2023.revealed_nobody", {"card": Card(e.card)})
    return line("y2023.revealed", {**seat_args(game, e.seat), "card": Card(e.card)})


def shown(e: yev.ClueCardShown, game: Game, log: tuple[Event, ...]) -> Line:
    names = {"player": User(user_at(game, e.seat)), "reader": User(user_at(game, e.to))}
    return line("y2023.clue_shown_none" if e.card is None else "y2023.clue_shown", names)


Y2023_LINES: Mapping[type[Event], LineOf] = MappingProxyType(
    {
        yev.PlacedCardSeen: looked,
        yev.ClueCardDrawn: clue_drawn,
        yev.ClueRevealed: revealed,
        yev.ClueCardShown: shown,
    }
)
