"""The lines a classic turn's card tells (every table edition's shared events): the roll, the
move, the suggestion, who could not refute and who showed a card (never which), the
accusation, how the turn ended, who was skipped or came back, a timer renewed after the bot
was offline. Secrecy: a line names no card but the suggestion's own (they are public)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.announce.plan import seat_args, triple, user_at
from bot.announce.turn_card import Line, LineOf, line
from bot.payload import Card, Moment, Span, User
from bot.render.board_text import square_label
from engine import events as ev
from engine.events import Event
from engine.state import Game
from engine.table.queries import table_of
from engine.table.state import MoveKind, TurnEnd


def _seat_of_suspect(game: Game, suspect: str) -> int | None:
    return next((p.seat for p in game.players if p.role == suspect), None)


def rolled(e: ev.DiceRolled, game: Game, log: tuple[Event, ...]) -> Line | None:
    """The roll, told with what came of it (the move, or the turn's end): the group's card
    changes once for both."""
    later = log[next(i for i, x in enumerate(log) if x is e) + 1 :]
    if not any(isinstance(x, ev.TokenMoved | ev.StayedToSuggest | ev.TurnEnded) for x in later):
        return None
    dice = " + ".join(str(d) for d in e.dice)
    args = {**seat_args(game, e.seat), "dice": dice, "total": sum(e.dice)}
    return line("table.rolled" if len(e.dice) == 1 else "table.rolled_many", args)


def moved(e: ev.TokenMoved, game: Game, log: tuple[Event, ...]) -> Line | None:
    """A walk, a passage, or a wrong accuser's token leaving the corridor; a token named in
    a suggestion is told by the suggestion."""
    seat = _seat_of_suspect(game, e.suspect)
    who = seat_args(game, seat) if seat is not None else {"suspect": Card(e.suspect)}
    if e.kind is MoveKind.SUGGESTION:
        return None
    if e.kind is MoveKind.OUT:
        return line("table.moved_out", {**who, "room": Card(str(e.to))})
    if isinstance(e.to, str):
        key = "table.passage" if e.kind is MoveKind.PASSAGE else "table.moved_room"
        return line(key, {**who, "room": Card(e.to)})
    return line("table.moved_square", {**who, "square": square_label(e.to)})


def stayed(e: ev.StayedToSuggest, game: Game, log: tuple[Event, ...]) -> Line:
    room = table_of(game).place_of(game.players[e.seat].role)
    return line("table.stayed", {**seat_args(game, e.seat), "room": Card(str(room))})


def suggested(e: ev.TableSuggestionMade, game: Game, log: tuple[Event, ...]) -> Line:
    """The suggestion (its cards are public), and that the named token and weapon came in."""
    brought = _seat_of_suspect(game, e.suspect) not in (None, e.suggester)
    args = {**seat_args(game, e.suggester), **triple(e.suspect, e.weapon, e.room)}
    return line("table.suggestion", {**args, "brought": brought})


def could_not_refute(e: ev.CouldNotRefute, game: Game, log: tuple[Event, ...]) -> Line:
    return line("table.could_not_refute", {"player": User(user_at(game, e.seat))})


def refuter_asked(e: ev.RefuterAsked, game: Game, log: tuple[Event, ...]) -> Line | None:
    """Who is choosing a card, until they have shown one (that line tells it then)."""
    answered = any(
        isinstance(x, ev.CardShown) and x.suggestion == e.suggestion and x.seat == e.seat
        for x in log
    )
    if answered:
        return None
    args = {
        "player": User(user_at(game, e.seat)),
        "refute_time": Span.of(game.settings.refute_time),
    }
    return line("table.refuter_asked", args)


def card_shown(e: ev.CardShown, game: Game, log: tuple[Event, ...]) -> Line:
    """Who showed the suggester a card, never which."""
    s = next(x for x in table_of(game).suggestions if x.number == e.suggestion)
    names = {"player": User(user_at(game, e.seat)), "suggester": User(user_at(game, s.suggester))}
    return line("table.card_shown_gm" if e.by_gm else "table.card_shown", names)


def nobody_refuted(e: ev.NobodyRefuted, game: Game, log: tuple[Event, ...]) -> Line:
    return line("table.nobody_refuted")


def accused(e: ev.AccusedAtTable, game: Game, log: tuple[Event, ...]) -> Line:
    """Who accused and whether it was right, never the cards (the end post shows them)."""
    key = "table.accused_right" if e.correct else "table.accused_wrong"
    return line(key, seat_args(game, e.seat))


def turn_ended(e: ev.TurnEnded, game: Game, log: tuple[Event, ...]) -> Line | None:
    """A turn whose time ran out (one the player ended is told by the next turn's card; an
    accusation and a player who left by their own lines and posts)."""
    if e.reason is TurnEnd.TIMED_OUT:
        return line("table.turn_timed_out", seat_args(game, e.seat))
    return None


def turn_skipped(e: ev.TurnSkipped, game: Game, log: tuple[Event, ...]) -> Line:
    return line("table.turn_skipped_away", seat_args(game, e.seat))


def player_returned(e: ev.PlayerReturned, game: Game, log: tuple[Event, ...]) -> Line:
    return line("table.player_returned", seat_args(game, e.seat))


def turn_renewed(e: ev.TurnTimerRenewed, game: Game, log: tuple[Event, ...]) -> Line:
    """The bot was down when the turn's time ran out: the turn goes on with a fresh timer."""
    return line("table.turn_renewed", {**seat_args(game, e.seat), "due_at": Moment.of(e.due)})


def refute_renewed(e: ev.RefuteTimerRenewed, game: Game, log: tuple[Event, ...]) -> Line:
    """The bot was down when the refuter's time ran out: they get a fresh timer."""
    args = {"player": User(user_at(game, e.seat)), "due_at": Moment.of(e.due)}
    return line("table.refute_renewed", args)


CLASSIC_LINES: Mapping[type[Event], LineOf] = MappingProxyType(
    {
        ev.DiceRolled: rolled,
        ev.TokenMoved: moved,
        ev.StayedToSuggest: stayed,
        ev.TableSuggestionMade: suggested,
        ev.CouldNotRefute: could_not_refute,
        ev.RefuterAsked: refuter_asked,
        ev.CardShown: card_shown,
        ev.NobodyRefuted: nobody_refuted,
        ev.AccusedAtTable: accused,
        ev.TurnEnded: turn_ended,
        ev.TurnSkipped: turn_skipped,
        ev.PlayerReturned: player_returned,
        ev.TurnTimerRenewed: turn_renewed,
        ev.RefuteTimerRenewed: refute_renewed,
    }
)
