"""Leaving and replacement (the newcomer gets the seat's hand, prompts and history
privately), pause and resume."""

from __future__ import annotations

from typing import Any

from bot.announce import table_turns
from bot.announce.plan import Plan, triple, user_at
from bot.announce.suggestions import prompt_key, send_prompt
from bot.payload import Card, Cards, Moment, Span, User
from engine import events as ev
from engine.format import format_of
from engine.state import Game


def player_left(plan: Plan, seq: int, e: ev.PlayerLeft, before: Game | None, after: Game) -> None:
    msg = "player.removed" if e.removed else "player.left"
    plan.group(plan.key(seq, "left"), msg, {"player": User(user_at(after, e.seat))})


def seat_replaced(
    plan: Plan, seq: int, e: ev.SeatReplaced, before: Game | None, after: Game
) -> None:
    """The newcomer receives the hand, the role and the seat's history privately."""
    player = after.players[e.seat]
    plan.group(
        plan.key(seq, "replaced"),
        "seat.replaced",
        {"old": User(e.old_user), "new": User(e.new_user), "role": Card(player.role)},
    )
    plan.private(
        plan.key(seq, "hand"),
        e.new_user,
        "dm.hand",
        {"hand": Cards(player.hand), "role": Card(player.role)},
    )
    if format_of(after).plays_turns(after):  # at the table: its refuter prompt and history
        table_turns.seat_handed_over(plan, seq, e, after)
        return
    for owed in after.answers_owed_by(e.seat):  # the newcomer answers what the seat owes
        closed = {
            "number": owed.number,
            "suggester": User(user_at(after, owed.suggester)),
            "new": User(e.new_user),
        }
        old_prompt = prompt_key(plan.ctx.game_id, owed.id, e.old_user)
        plan.edit(
            plan.key(seq, f"moved{owed.id}"),
            old_prompt,
            "dm.prompt_moved",
            closed,
            user=e.old_user,
        )
        send_prompt(plan, after, owed)
    plan.private(
        plan.key(seq, "history"),
        e.new_user,
        "dm.seat_history",
        {"history": seat_history(after, e.seat)},
    )


def seat_history(game: Game, seat: int) -> list[dict[str, Any]]:
    """What the seat made and learned: its suggestions with their answers and shown cards."""
    history: list[dict[str, Any]] = []
    for s in game.suggestions:
        if s.suggester == seat or s.target == seat:
            history.append(
                {
                    "day": s.day,
                    "number": s.number,
                    "mine": s.suggester == seat,
                    "other": User(user_at(game, s.target if s.suggester == seat else s.suggester)),
                    **triple(s.suspect, s.weapon, s.place),
                    "answer": s.answer.value,
                    "shown": Card(s.card) if s.answer.value == "refuted" and s.card else None,
                }
            )
    return history


def game_paused(plan: Plan, seq: int, e: ev.GamePaused, before: Game | None, after: Game) -> None:
    plan.group(plan.key(seq, "pause"), "game.paused", {})


def game_resumed(plan: Plan, seq: int, e: ev.GameResumed, before: Game | None, after: Game) -> None:
    args: dict[str, Any] = {"paused": Span.of(e.at - e.paused_at)}
    if after.day_open and after.day_ends_at is not None:
        args["ends_at"] = Moment.of(after.day_ends_at)
    plan.group(plan.key(seq, "resume"), "game.resumed", args)
