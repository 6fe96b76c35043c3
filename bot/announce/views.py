"""What a person asks to see (`/status`, `/log`, `/hand`, an answer prompt shown again), as
message arguments built from the engine's views, with the same builders the announcements
use: what a command answers and what an event announces read alike."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.announce.plan import Args, triple, user_at
from bot.payload import Card, Cards, Moment, User, Users, labels_of
from engine.format import format_of
from engine.queries import PlayerView, answer_choices, public_view
from engine.state import Game, Suggestion
from engine.table.queries import table_of
from engine.table.state import Step


def answer_prompt_args(game: Game, s: Suggestion) -> tuple[Args, tuple[str, ...]]:
    """A target's answer prompt: the suggestion, whether they hold none of its cards, the
    deadline; and the cards they may show (exactly their matching cards)."""
    target = user_at(game, s.target)
    choices = answer_choices(game, target, s.id)
    args = {
        "number": s.number,
        "suggester": User(user_at(game, s.suggester)),
        **triple(s.suspect, s.weapon, s.place),
        "holds_none": not choices,
        "due_at": Moment.of(s.answer_due),
    }
    return args, choices


def status_args(game: Game) -> Args:
    """The public facts /status shows: day, its end, quotas left, answers pending."""
    view = public_view(game)
    return {
        "phase": view.phase.value,
        "day": view.day,
        "day_open": view.day_open,
        "paused": view.paused,
        "ends_at": Moment.of(view.day_ends_at) if view.day_ends_at else None,
        "window_at": Moment.of(view.window_closes_at) if view.window_closes_at else None,
        "lobby": Users(tuple(view.lobby)),
        "seats": [
            {
                "user": User(s.user),
                "left": s.quota_left,
                "owes": s.owes,
                "active": s.active,
                "eliminated": s.eliminated,
                "accused": s.accused,
            }
            for s in view.seats
        ],
        "tz": game.settings.timezone,
    }


def table_status_args(game: Game, board: Args) -> Args:
    """The public facts /status shows in a classic game: whose turn and its step, the
    board (the edition's `board` of the game: each token's room or square, each weapon's
    room), who is out, away or gone."""
    table = table_of(game)
    player = game.players[table.current]
    pending = table.pending
    here = table.place_of(player.role)
    step = table.step.value
    if table.step is Step.MOVED and table.entered and isinstance(here, str):
        step = "in_room"  # may suggest there
    return {
        "paused": game.paused,
        "turn": table.turn,
        "player": User(player.user),
        "suspect": Card(player.role),
        "step": step,
        "total": sum(table.dice),
        "refuter": User(user_at(game, pending.refuter))
        if pending is not None and pending.refuter is not None
        else None,
        "due_at": Moment.of(table.due) if table.due is not None and not game.paused else None,
        "board": board,
        "seats": [
            {
                "user": User(p.user),
                "suspect": Card(p.role),
                "state": _seat_state(game, p.seat),
            }
            for p in game.players
        ],
        "tz": game.settings.timezone,
    }


def _seat_state(game: Game, seat: int) -> str:
    player = game.players[seat]
    if not player.active:
        return "left"
    if player.eliminated:
        return "out"
    if table_of(game).seats[seat].away:
        return "away"
    return "playing"


def log_entries(game: Game, day: int) -> list[dict[str, Any]]:
    """A day's public log: each suggestion, its people and cards, and how it was answered."""
    return [
        {
            "number": s.number,
            "suggester": User(user_at(game, s.suggester)),
            "target": User(user_at(game, s.target)),
            **triple(s.suspect, s.weapon, s.place),
            "answer": s.answer.value,
            "by_gm": s.by_gm,
        }
        for s in game.suggestions
        if s.day == day
    ]


def _shown(game: Game, view: PlayerView) -> list[dict[str, Any]]:
    """The cards shown to the player: by day in the forum, by turn at the table."""
    if format_of(game).plays_turns(game):
        turns = {s.number: s.turn for s in format_of(game).table_suggestions(game)}
        return [{"number": n, "turn": turns[n], "card": card} for n, card in view.shown_to_me]
    return [
        {"number": game.suggestions[i - 1].number, "day": game.suggestions[i - 1].day, "card": card}
        for i, card in view.shown_to_me
    ]


def hand_args(
    game: Game, view: PlayerView, also_seen: tuple[str, ...], now: datetime | None = None
) -> Args:
    """One game's part of /hand: hand, role, the cards shown to them, what else the edition
    lets them see (its `also_seen`) and, in a format with days, the day's quota and the
    answers owed (the caller adds which game it is)."""
    days: Args = {}
    if format_of(game).has_days:
        days = {
            "day_counts": {"left": view.quota_left, "owes": len(view.owes), "owed": len(view.owed)}
        }
    return {
        "labels": labels_of(game.pack) or {},
        "hand": Cards(view.hand),
        "role": Card(view.role),
        **days,
        "also_seen": list(also_seen),
        "shown": _shown(game, view),
        "standing": Cards(game.players[view.seat].standing),
        "away_until": _away_until(game, view.seat, now),
    }


def _away_until(game: Game, seat: int, now: datetime | None) -> Moment | None:
    """Until when the player said they are away, while it lasts at `now`."""
    player = game.players[seat]
    if now is None or not player.away_at(now):
        return None
    assert player.away_until is not None
    return Moment.of(player.away_until)
