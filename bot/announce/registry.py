"""The event registry, who is told what: each engine event type, the function that plans
its messages (every format's here, an edition's own in `bot.editions`); and the Planner the
store calls inside a command's transaction."""

from __future__ import annotations

from bot.announce import accusations, admin, days, lobby, presence, suggestions, table_turns
from bot.announce.card_lines import CLASSIC_LINES
from bot.announce.index import plan_index
from bot.announce.plan import Handler, Plan
from bot.announce.turn_card import LineOf, plan_card
from bot.editions.registry import EDITIONS, edition_of
from engine import events as ev
from engine.state import Game
from storage.messages_owed import OutboxItem, PlanContext


def _silent(plan: Plan, seq: int, e: ev.Event, before: Game | None, after: Game) -> None:
    """Told as part of another event's message (the window opens with the first accusation),
    or not told at all (a clock started by its message's delivery: that message says it)."""


SHARED_HANDLERS: dict[type[ev.Event], Handler] = {  # every format's events
    ev.LobbyOpened: lobby.lobby_opened,
    ev.PlayerJoined: lobby.lobby_changed,
    ev.PlayerLeftLobby: lobby.lobby_changed,
    ev.RoleChosen: lobby.lobby_changed,
    ev.SettingsChanged: lobby.settings_changed,
    ev.GameStarted: lobby.game_started,
    ev.DayOpened: days.day_opened,
    ev.DayEnded: days.day_ended,
    ev.DayExtended: days.day_extended,
    ev.SuggestionMade: suggestions.suggestion_made,
    ev.SuggestionRefuted: suggestions.suggestion_refuted,
    ev.SuggestionNotRefuted: suggestions.suggestion_not_refuted,
    ev.SuggestionVoided: suggestions.suggestion_voided,
    ev.AccusationMade: accusations.accusation_made,
    ev.WindowOpened: _silent,
    ev.AccusationJudged: accusations.accusation_judged,
    ev.WindowClosed: accusations.window_closed,
    ev.PlayerLeft: admin.player_left,
    ev.SeatReplaced: admin.seat_replaced,
    ev.GamePaused: admin.game_paused,
    ev.GameResumed: admin.game_resumed,
    ev.ReminderSent: days.reminder_sent,
    ev.GameEnded: accusations.game_ended,
    ev.BoardSetUp: table_turns.board_set_up,
    ev.TurnStarted: table_turns.told_on_card,
    ev.TurnSkipped: table_turns.told_on_card,
    ev.DiceRolled: table_turns.told_on_card,
    ev.TokenMoved: table_turns.told_on_card,
    ev.StayedToSuggest: table_turns.told_on_card,
    ev.WeaponMoved: table_turns.told_on_card,
    ev.TableSuggestionMade: table_turns.told_on_card,
    ev.CouldNotRefute: table_turns.told_on_card,
    ev.RefuterAsked: table_turns.refuter_asked,
    ev.CardShown: table_turns.card_shown,
    ev.NobodyRefuted: table_turns.told_on_card,
    ev.AccusedAtTable: table_turns.accused,
    ev.TurnEnded: table_turns.turn_ended,
    ev.PlayerAway: table_turns.player_away,
    ev.PlayerReturned: table_turns.told_on_card,
    ev.TurnTimerRenewed: table_turns.told_on_card,
    ev.RefuteTimerRenewed: table_turns.told_on_card,
    ev.ClockStarted: _silent,
    ev.WentAway: presence.went_away,
    ev.CameBack: presence.came_back,
    ev.StandingAnswerSet: presence.standing_answer_set,
    ev.PlayerIdle: presence.player_idle,
}
# Every event's planner: the shared ones, and each edition's for its own events.
EVENT_HANDLERS: dict[type[ev.Event], Handler] = {
    **{t: h for e in EDITIONS for t, h in e.planners.items()},
    **SHARED_HANDLERS,
}


def card_lines_of(game: Game) -> dict[type[ev.Event], LineOf]:
    """What each event tells on a turn's card in the game's edition (the classic's lines,
    and the edition's own or its own wording of them)."""
    return {**CLASSIC_LINES, **edition_of(game).lines}


def plan_messages(ctx: PlanContext) -> list[OutboxItem]:
    """The command's events one by one (with the engine's states around each), collecting
    each one's messages."""
    edition = edition_of(ctx.after)
    plan = Plan(ctx, board=edition.board)
    own = edition.planners
    for offset, (event, before, after) in enumerate(ctx.decision.steps()):
        handler = own.get(type(event)) or SHARED_HANDLERS[type(event)]
        handler(plan, ctx.first_seq + offset, event, before, after)
    if edition.prompt is not None:  # at the table: the turn's card, the player's prompt
        plan_card(
            plan, {**CLASSIC_LINES, **edition.lines}, edition.card_buttons, edition.card_clock
        )
        edition.prompt.after(plan)
    plan_index(plan)  # a forum game's index: posted at the start, edited when it changed
    return plan.items
