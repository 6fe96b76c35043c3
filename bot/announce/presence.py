"""Away players, standing answers and silent days: the thread hears "away until …" (never a
reason) and who is back; a standing answer is confirmed to its player alone; a silent
player is reminded privately, and after the game's silent days the thread asks for a
replacement, with a button for an admin (in the day's end post: bot.announce.days)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.announce.plan import Plan, user_at
from bot.payload import Cards, Moment, User
from engine import events as ev
from engine.settings import Settings
from engine.state import Game


def went_away(plan: Plan, seq: int, e: ev.WentAway, before: Game | None, after: Game) -> None:
    args = {"player": User(user_at(after, e.seat)), "until": Moment.of(e.until)}
    plan.group(plan.key(seq, "away"), "away.announced", args)
    plan.private(
        plan.key(seq, "awaydm"),
        user_at(after, e.seat),
        "dm.away_set",
        {
            "until": Moment.of(e.until),
            "days": after.players[e.seat].away_days,
            "limit": after.settings.away_days,
        },
    )


def came_back(plan: Plan, seq: int, e: ev.CameBack, before: Game | None, after: Game) -> None:
    """Back early: the thread hears it, and the player is told in private, where they typed
    /back (going away again while away is told by the new "away until" alone)."""
    again = any(isinstance(x, ev.WentAway) and x.seat == e.seat for x in plan.ctx.events)
    if not again:
        plan.group(plan.key(seq, "back"), "away.back", {"player": User(user_at(after, e.seat))})
        used = {"days": after.players[e.seat].away_days, "limit": after.settings.away_days}
        plan.private(plan.key(seq, "backdm"), user_at(after, e.seat), "dm.back", used)


def standing_answer_set(
    plan: Plan, seq: int, e: ev.StandingAnswerSet, before: Game | None, after: Game
) -> None:
    """Told to the player alone: their standing answer names their own cards."""
    msg = "dm.standing_set" if e.order else "dm.standing_cleared"
    plan.private(plan.key(seq, "standing"), user_at(after, e.seat), msg, {"cards": Cards(e.order)})


def player_idle(plan: Plan, seq: int, e: ev.PlayerIdle, before: Game | None, after: Game) -> None:
    """The day's silence: a private reminder (a setting). The thread's call for a
    replacement is in the day's end post (`calls_for_replacement`)."""
    settings = after.settings
    player = after.players[e.seat]
    if settings.prod_idle:
        plan.private(
            plan.key(seq, "prod"),
            player.user,
            "dm.prod",
            {"days": e.days, "count": e.days, "away_left": settings.away_days - player.away_days},
        )


def calls_for_replacement(events: Sequence[ev.Event], settings: Settings) -> list[ev.PlayerIdle]:
    """The silent players a day's end calls to replace: each once, on the game's silent day
    in a row (`replacement_after`; 0: never)."""
    after = settings.replacement_after
    return [e for e in events if isinstance(e, ev.PlayerIdle) and after and e.days == after]
