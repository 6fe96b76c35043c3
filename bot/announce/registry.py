"""The shared event registry, who is told what: each engine event type, the function that
plans its messages in every format (an edition's own are in `bot.editions`, and
`bot.editions.planning` joins them into the Planner the store calls)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.announce import accusations, admin, days, lobby, presence, suggestions, table_turns
from bot.announce.plan import Handler, Plan
from engine import events as ev
from engine.state import Game


def _silent(plan: Plan, seq: int, e: ev.Event, before: Game | None, after: Game) -> None:
    """Told as part of another event's message (the window opens with the first accusation),
    or not told at all (a clock started by its message's delivery: that message says it)."""


SHARED_HANDLERS: Mapping[type[ev.Event], Handler] = MappingProxyType(  # every format's events
    {
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
        ev.PlayerReturned: table_turns.player_returned,
        ev.TurnTimerRenewed: table_turns.told_on_card,
        ev.RefuteTimerRenewed: table_turns.told_on_card,
        ev.ClockStarted: _silent,
        ev.WentAway: presence.went_away,
        ev.CameBack: presence.came_back,
        ev.StandingAnswerSet: presence.standing_answer_set,
        ev.PlayerIdle: presence.player_idle,
    }
)
