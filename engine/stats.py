"""A chat's records over its finished games: how many were played and how they ended, each
player's games and wins, how long games last, the quickest win."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.computer import detective_level
from engine.events import EndReason
from engine.format import format_of
from engine.ids import UserId
from engine.state import Game


@dataclass(frozen=True)
class PlayerRecord:
    user: UserId
    played: int
    won: int


@dataclass(frozen=True)
class ChatRecords:
    """`length`: days (forum) or turns (table) a finished game lasted, on average (None: no
    game of that kind); `quickest`: the shortest won game's length, its winner and kind."""

    played: int
    won: int
    no_winner: int
    ended_by_admin: int
    suggestions: int
    forum_days: float | None
    table_turns: float | None
    quickest: tuple[int, UserId, bool] | None  # (length, winner, at the table)
    players: tuple[PlayerRecord, ...]
    # Games with a computer detective at the table count apart, in these alone:
    computer_games: int = 0
    computer_won: int = 0  # ... won by a computer detective
    computer_people_won: int = 0  # ... won by a person


def chat_records(games: Sequence[Game]) -> ChatRecords:
    """The records of a chat's ended games (games that never started do not count); games
    a computer detective sat in are counted apart."""
    ended = [g for g in games if g.envelope is not None and g.end_reason is not None]
    played = [g for g in ended if not g.computers_played]
    computers = [g for g in ended if g.computers_played]
    winners = [g.players[g.winner].user for g in computers if g.winner is not None]
    by_user: dict[UserId, list[int]] = {}
    for game in played:
        winner = game.players[game.winner].user if game.winner is not None else None
        for player in game.players:
            counts = by_user.setdefault(player.user, [0, 0])
            counts[0] += 1
            counts[1] += int(player.user == winner)
    records = sorted(
        (PlayerRecord(user, n, w) for user, (n, w) in by_user.items()),
        key=lambda r: (-r.won, -r.won / r.played, r.user),
    )
    days = [g.day for g in played if format_of(g).has_days]
    turns = [format_of(g).moment(g) for g in played if not format_of(g).has_days]
    won = [g for g in played if g.end_reason is EndReason.WON and g.winner is not None]
    quickest = min(
        (
            (format_of(g).moment(g), g.players[g.winner].user, not format_of(g).has_days)
            for g in won
            if g.winner is not None
        ),
        default=None,
    )
    return ChatRecords(
        played=len(played),
        won=len(won),
        no_winner=sum(g.end_reason is EndReason.NO_WINNER for g in played),
        ended_by_admin=sum(g.end_reason is EndReason.ENDED for g in played),
        suggestions=sum(_suggestions(g) for g in played),
        forum_days=sum(days) / len(days) if days else None,
        table_turns=sum(turns) / len(turns) if turns else None,
        quickest=quickest,
        players=tuple(records),
        computer_games=len(computers),
        computer_won=sum(detective_level(u) is not None for u in winners),
        computer_people_won=sum(detective_level(u) is None for u in winners),
    )


def _suggestions(game: Game) -> int:
    return len(game.suggestions) + len(format_of(game).table_suggestions(game))
