"""One player's public history in a game, as the thread saw it: the suggestions they made
and how each was answered, their answers to others' suggestions (that they showed a card,
never which), and that they accused (never what: that stays private until the end)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.cards import CardId
from engine.errors import GameNotRunning
from engine.format import format_of
from engine.ids import Seat, UserId
from engine.state import Answer, Game, Phase, Suggestion
from engine.table.state import TableSuggestion


@dataclass(frozen=True)
class Reply:
    """One asked player's answer to a suggestion, without the card: refuted (showed a
    card), not refuted, pending (asked, not yet answered) or voided; `by_gm` when the GM
    answered for them."""

    seat: Seat
    answer: Answer
    by_gm: bool = False


@dataclass(frozen=True)
class LoggedSuggestion:
    """A suggestion: who made it, when (a forum day or a table turn, the other 0), the
    three cards, and the replies of those asked in the order they were asked (in the forum,
    the one target's)."""

    number: int
    day: int
    turn: int
    suggester: Seat
    cards: tuple[CardId, CardId, CardId]
    replies: tuple[Reply, ...]

    def reply_of(self, seat: Seat) -> Reply | None:
        return next((r for r in self.replies if r.seat == seat), None)


@dataclass(frozen=True)
class LoggedAccusation:
    """That the player accused, when, and how it was judged once the thread was told
    (None: the accusation window has not closed yet); never the cards."""

    at: datetime
    turn: int  # the table's turn; 0 in the forum
    correct: bool | None


@dataclass(frozen=True)
class PlayerLog:
    """A seat's public history: its suggestions, its answers to others', its accusations."""

    seat: Seat
    made: tuple[LoggedSuggestion, ...]
    answered: tuple[LoggedSuggestion, ...]
    accusations: tuple[LoggedAccusation, ...]


def player_log(game: Game, user: UserId) -> PlayerLog | None:
    """The public history of the person's seat (None: they do not play in this game; a
    replaced seat's history is its newcomer's). Refused while the game is a lobby."""
    if game.phase is Phase.LOBBY:
        raise GameNotRunning()
    player = game.player_of(user)
    if player is None:
        return None
    seat = player.seat
    logged = _logged(game)
    windows = not format_of(game).has_days  # an accusation's window: at the table, its turn
    return PlayerLog(
        seat=seat,
        made=tuple(s for s in logged if s.suggester == seat),
        answered=tuple(s for s in logged if s.suggester != seat and s.reply_of(seat)),
        accusations=tuple(
            LoggedAccusation(a.at, a.window if windows else 0, a.correct)
            for a in game.accusations
            if a.seat == seat
        ),
    )


def _logged(game: Game) -> tuple[LoggedSuggestion, ...]:
    """Every suggestion of the game, in order, without the cards shown."""
    forum = tuple(_forum(s) for s in game.suggestions)
    table = tuple(_table(s) for s in format_of(game).table_suggestions(game))
    return forum + table


def _forum(s: Suggestion) -> LoggedSuggestion:
    reply = Reply(s.target, s.answer, s.by_gm)
    return LoggedSuggestion(s.number, s.day, 0, s.suggester, s.cards, (reply,))


def _table(s: TableSuggestion) -> LoggedSuggestion:
    """At the table: those who could not refute, in turn, then the one who showed a card
    (or who is asked now)."""
    replies = [Reply(seat, Answer.NOT_REFUTED) for seat in s.passed]
    if s.refuter is not None:
        answer = Answer.REFUTED if s.answered else Answer.PENDING
        replies.append(Reply(s.refuter, answer, s.by_gm and s.answered))
    return LoggedSuggestion(s.number, 0, s.turn, s.suggester, s.cards, tuple(replies))
