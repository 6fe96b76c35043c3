"""The Planner the store calls inside a command's transaction: every event, its messages."""

from __future__ import annotations

from bot import announce as a
from bot import announce_end as end
from bot.announce import Handler
from bot.planner import Plan
from engine import events as ev
from engine.state import Game
from storage.messages_owed import OutboxItem, PlanContext


def _silent(plan: Plan, seq: int, e: ev.Event, before: Game | None, after: Game) -> None:
    """Told as part of another event's message (the window opens with the first accusation)."""


HANDLERS: dict[type[ev.Event], Handler] = {
    ev.LobbyOpened: a.lobby_opened,
    ev.PlayerJoined: a.lobby_changed,
    ev.PlayerLeftLobby: a.lobby_changed,
    ev.SettingsChanged: a.settings_changed,
    ev.GameStarted: a.game_started,
    ev.DayOpened: a.day_opened,
    ev.DayEnded: a.day_ended,
    ev.DayExtended: a.day_extended,
    ev.SuggestionMade: a.suggestion_made,
    ev.SuggestionRefuted: a.suggestion_refuted,
    ev.SuggestionNotRefuted: a.suggestion_not_refuted,
    ev.SuggestionVoided: a.suggestion_voided,
    ev.AccusationMade: end.accusation_made,
    ev.WindowOpened: _silent,
    ev.AccusationJudged: end.accusation_judged,
    ev.WindowClosed: end.window_closed,
    ev.PlayerLeft: end.player_left,
    ev.SeatReplaced: end.seat_replaced,
    ev.GamePaused: end.game_paused,
    ev.GameResumed: end.game_resumed,
    ev.ReminderSent: end.reminder_sent,
    ev.GameEnded: end.game_ended,
}


def plan_messages(ctx: PlanContext) -> list[OutboxItem]:
    """The command's events one by one (with the engine's states around each), collecting
    each one's messages."""
    plan = Plan(ctx)
    for offset, (event, before, after) in enumerate(ctx.decision.steps()):
        HANDLERS[type(event)](plan, ctx.first_seq + offset, event, before, after)
    return plan.items
