"""Announcements of accusations, seats, pauses, reminders and the end of the game."""

from __future__ import annotations

from typing import Any

from bot.announce import send_prompt
from bot.planner import Plan, lobby_key, prompt_key
from engine import events as ev
from engine.state import Game


def _user(game: Game, seat: int) -> int:
    return game.players[seat].user


def accusation_made(
    plan: Plan, seq: int, e: ev.AccusationMade, before: Game | None, after: Game
) -> None:
    """The thread learns who accused, never what; the accuser gets a receipt."""
    accuser = _user(after, e.seat)
    window = after.window
    assert window is not None
    first = any(isinstance(x, ev.WindowOpened) and x.window == e.window for x in plan.ctx.events)
    plan.group(
        plan.key(seq, "accuse"),
        "accusation.made",
        {"accuser_user": accuser, "first": first, "closes_at": window.closes_at.isoformat()},
    )
    plan.private(
        plan.key(seq, "receipt"),
        accuser,
        "dm.accusation_received",
        {
            "suspect_card": e.suspect,
            "weapon_card": e.weapon,
            "place_card": e.place,
            "closes_at": window.closes_at.isoformat(),
        },
    )


def accusation_judged(
    plan: Plan, seq: int, e: ev.AccusationJudged, before: Game | None, after: Game
) -> None:
    if e.correct:
        return  # the end of the game says it
    accuser = _user(after, e.seat)
    goes_on = plan.ctx.after.running  # once the game has ended, nobody suggests any more
    may_suggest = after.settings.eliminated_may_suggest and goes_on
    plan.group(
        plan.key(seq, "wrong"),
        "accusation.wrong" if goes_on else "accusation.wrong_final",
        {"accuser_user": accuser, "may_suggest": may_suggest},
    )
    plan.private(
        plan.key(seq, "wrongdm"),
        accuser,
        "dm.accusation_wrong" if goes_on else "dm.accusation_wrong_final",
        {"may_suggest": may_suggest},
    )


def window_closed(
    plan: Plan, seq: int, e: ev.WindowClosed, before: Game | None, after: Game
) -> None:
    if plan.ctx.after.running:
        plan.group(plan.key(seq, "window"), "window.closed", {"window": e.window})


def player_left(plan: Plan, seq: int, e: ev.PlayerLeft, before: Game | None, after: Game) -> None:
    msg = "player.removed" if e.removed else "player.left"
    plan.group(plan.key(seq, "left"), msg, {"player_user": _user(after, e.seat)})


def seat_replaced(
    plan: Plan, seq: int, e: ev.SeatReplaced, before: Game | None, after: Game
) -> None:
    """The newcomer receives the hand, the role and the seat's history privately."""
    player = after.players[e.seat]
    plan.group(
        plan.key(seq, "replaced"),
        "seat.replaced",
        {"old_user": e.old_user, "new_user": e.new_user, "role_card": player.role},
    )
    plan.private(
        plan.key(seq, "hand"),
        e.new_user,
        "dm.hand",
        {"hand_cards": list(player.hand), "role_card": player.role},
    )
    for owed in after.answers_owed_by(e.seat):  # the newcomer answers what the seat owes
        closed = {
            "number": owed.number,
            "suggester_user": _user(after, owed.suggester),
            "new_user": e.new_user,
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
                    "other_user": game.players[
                        s.target if s.suggester == seat else s.suggester
                    ].user,
                    "suspect_card": s.suspect,
                    "weapon_card": s.weapon,
                    "place_card": s.place,
                    "answer": s.answer.value,
                    "shown_card": s.card if s.answer.value == "refuted" else None,
                }
            )
    return history


def game_paused(plan: Plan, seq: int, e: ev.GamePaused, before: Game | None, after: Game) -> None:
    plan.group(plan.key(seq, "pause"), "game.paused", {})


def game_resumed(plan: Plan, seq: int, e: ev.GameResumed, before: Game | None, after: Game) -> None:
    args: dict[str, Any] = {"paused_td": (e.at - e.paused_at).total_seconds()}
    if after.day_open and after.day_ends_at is not None:
        args["ends_at"] = after.day_ends_at.isoformat()
    plan.group(plan.key(seq, "resume"), "game.resumed", args)


def reminder_sent(
    plan: Plan, seq: int, e: ev.ReminderSent, before: Game | None, after: Game
) -> None:
    """A private nudge to players who owe answers or still have suggestions."""
    assert after.day_ends_at is not None
    for player in after.players:
        owes = len(after.answers_owed_by(player.seat))
        left = after.quota_left(player)
        if player.active and (owes or left):
            plan.private(
                plan.key(seq, f"remind{player.user}"),
                player.user,
                "dm.reminder",
                {"owes": owes, "left": left, "ends_at": after.day_ends_at.isoformat()},
            )


def game_ended(plan: Plan, seq: int, e: ev.GameEnded, before: Game | None, after: Game) -> None:
    """The end reveals everything: envelope, every accusation, every hand."""
    if before is None or after.envelope is None:
        plan.edit(plan.key(seq, "cancel"), lobby_key(plan.ctx.game_id), "lobby.cancelled")
        return
    args = {
        "reason": e.reason,
        "winner_user": _user(after, e.winner) if e.winner is not None else None,
        "envelope_cards": list(after.envelope),
        "accusations": [
            {"user": _user(after, a.seat), "cards": list(a.cards), "correct": a.correct}
            for a in after.accusations
        ],
        "hands": [{"user": p.user, "cards": list(p.hand)} for p in after.players],
    }
    plan.group(plan.key(seq, "end"), "game.ended", args)
