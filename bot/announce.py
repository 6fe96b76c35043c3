"""Each event's announcements: the thread's post and the private messages it causes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.planner import (
    Plan,
    answer_buttons,
    cards_by_category,
    lobby_args,
    lobby_buttons,
    lobby_key,
    prompt_key,
    roster,
    suggestion_key,
)
from engine import events as ev
from engine.codec import to_dict
from engine.queries import answer_choices
from engine.state import Answer, Game, Suggestion

Handler = Callable[[Plan, int, Any, Game | None, Game], None]


def _user(game: Game, seat: int) -> int:
    return game.players[seat].user


def lobby_opened(plan: Plan, seq: int, e: ev.LobbyOpened, before: Game | None, after: Game) -> None:
    key = lobby_key(plan.ctx.game_id)
    lobby = lobby_args(plan.ctx.after)
    plan.group(key, "lobby.opened", lobby, buttons=lobby_buttons(plan.ctx.game_id))


def lobby_changed(plan: Plan, seq: int, e: ev.Event, before: Game | None, after: Game) -> None:
    if plan.ctx.before is None:
        return  # the lobby's first post already shows it
    plan.edit(
        plan.key(seq, "lobby"),
        lobby_key(plan.ctx.game_id),
        "lobby.opened",
        lobby_args(after),
        buttons=lobby_buttons(plan.ctx.game_id),
    )


def settings_changed(
    plan: Plan, seq: int, e: ev.SettingsChanged, before: Game | None, after: Game
) -> None:
    encoded = to_dict(e.settings)
    values = {name: encoded[name] for name in e.changed}
    later = before is not None and before.running
    plan.group(
        plan.key(seq, "settings"), "settings.changed", {"settings": values, "from_next_day": later}
    )


def game_started(plan: Plan, seq: int, e: ev.GameStarted, before: Game | None, after: Game) -> None:
    game_id = plan.ctx.game_id
    plan.edit(
        plan.key(seq, "lobby"),
        lobby_key(game_id),
        "lobby.started",
        {"players_users": [d.user for d in e.seats]},
    )
    plan.group(
        plan.key(seq, "start"),
        "game.started",
        {
            "roster": roster(after),
            "cards": cards_by_category(after),
            "per_day": after.settings.suggestions_per_day,
            "per_target": after.settings.max_per_target_per_day,
            "day_length_td": after.settings.day_length.total_seconds(),
        },
    )
    for deal in e.seats:
        plan.private(
            plan.key(seq, f"hand{deal.user}"),
            deal.user,
            "dm.hand",
            {"hand_cards": list(deal.hand), "role_card": deal.role},
        )


def day_opened(plan: Plan, seq: int, e: ev.DayOpened, before: Game | None, after: Game) -> None:
    penalties = [
        {"user": p.user, "count": p.penalty_today} for p in after.players if p.penalty_today
    ]
    plan.group(
        plan.key(seq, "day"),
        "day.opened",
        {
            "day": e.day,
            "ends_at": e.ends_at.isoformat(),
            "per_day": after.settings.suggestions_per_day,
            "penalties": penalties,
        },
    )


def day_ended(plan: Plan, seq: int, e: ev.DayEnded, before: Game | None, after: Game) -> None:
    waiting = after.window_open and not _opens_day_next(plan, seq)
    plan.group(
        plan.key(seq, "dayend"),
        "day.ended",
        {
            "day": e.day,
            "waiting_for_window": waiting,
            "window_closes_at": after.window.closes_at.isoformat()
            if waiting and after.window
            else None,
        },
    )


def _opens_day_next(plan: Plan, seq: int) -> bool:
    index = seq - plan.ctx.first_seq
    later = plan.ctx.events[index + 1 :]
    return any(isinstance(x, ev.DayOpened) for x in later)


def day_extended(plan: Plan, seq: int, e: ev.DayExtended, before: Game | None, after: Game) -> None:
    plan.group(
        plan.key(seq, "extend"), "day.extended", {"day": e.day, "ends_at": e.ends_at.isoformat()}
    )


def suggestion_made(
    plan: Plan, seq: int, e: ev.SuggestionMade, before: Game | None, after: Game
) -> None:
    game_id = plan.ctx.game_id
    suggester, target = _user(after, e.suggester), _user(after, e.target)
    plan.group(
        suggestion_key(game_id, e.suggestion),
        "suggestion.made",
        {
            "number": e.number,
            "suggester_user": suggester,
            "target_user": target,
            "suspect_card": e.suspect,
            "weapon_card": e.weapon,
            "place_card": e.place,
        },
    )
    final = plan.ctx.after
    answered_now = final.suggestion(e.suggestion)
    if answered_now is None or answered_now.answer is not Answer.PENDING:
        return
    made = after.suggestion(e.suggestion)
    assert made is not None
    send_prompt(plan, after, made)


def send_prompt(plan: Plan, game: Game, s: Suggestion) -> None:
    """The target's private answer prompt: exactly their matching cards as buttons."""
    target = _user(game, s.target)
    choices = answer_choices(game, target, s.id)
    plan.private(
        prompt_key(plan.ctx.game_id, s.id, target),
        target,
        "dm.answer_prompt",
        {
            "number": s.number,
            "suggester_user": _user(game, s.suggester),
            "suspect_card": s.suspect,
            "weapon_card": s.weapon,
            "place_card": s.place,
            "holds_none": not choices,
            "due_at": s.answer_due.isoformat(),
        },
        buttons=answer_buttons(plan.ctx.game_id, s.id, choices),
    )


def _answered(
    plan: Plan,
    seq: int,
    suggestion_id: int,
    after: Game,
    msg: str,
    args: dict[str, Any],
    outcome: dict[str, Any],
) -> None:
    """The thread's reply to the suggestion; the target's prompt keeps the suggestion and
    says how it ended (`outcome`: what was shown, or that it was voided)."""
    game_id = plan.ctx.game_id
    s = after.suggestion(suggestion_id)
    assert s is not None
    base = {
        "number": s.number,
        "suggester_user": _user(after, s.suggester),
        "target_user": _user(after, s.target),
    }
    plan.group(
        plan.key(seq, "answer"),
        msg,
        {**base, **args},
        reply_to=suggestion_key(game_id, suggestion_id),
    )
    made_now = any(
        isinstance(x, ev.SuggestionMade) and x.suggestion == suggestion_id for x in plan.ctx.events
    )
    if not made_now:  # a prompt was sent earlier: close it
        cards = {"suspect_card": s.suspect, "weapon_card": s.weapon, "place_card": s.place}
        plan.edit(
            plan.key(seq, "prompt"),
            prompt_key(game_id, suggestion_id, base["target_user"]),
            "dm.prompt_closed",
            {**base, **cards, **outcome},
            user=base["target_user"],
        )


def suggestion_refuted(
    plan: Plan, seq: int, e: ev.SuggestionRefuted, before: Game | None, after: Game
) -> None:
    s = after.suggestion(e.suggestion)
    assert s is not None
    _answered(
        plan,
        seq,
        e.suggestion,
        after,
        "answer.refuted",
        {"by_gm": e.by_gm, "penalized": e.penalized, **_penalty(after)},
        {"outcome": "refuted_gm" if e.by_gm else "refuted", "shown_card": e.card},
    )
    suggester, target = _user(after, s.suggester), _user(after, s.target)
    plan.private(
        plan.key(seq, "shown"),
        suggester,
        "dm.card_shown",
        {"number": s.number, "target_user": target, "shown_card": e.card, "by_gm": e.by_gm},
    )
    if e.by_gm and after.players[s.target].active:
        # No penalty although the setting has one: the deadline fell due while the bot was down.
        excused = not e.penalized and after.settings.missed_answer_penalty > 0
        plan.private(
            plan.key(seq, "gm"),
            target,
            "dm.gm_answered_excused" if excused else "dm.gm_answered",
            {
                "number": s.number,
                "suggester_user": suggester,
                "shown_card": e.card,
                "penalized": e.penalized,
                "penalty": after.settings.missed_answer_penalty,
                "count": after.settings.missed_answer_penalty,
            },
        )


def suggestion_not_refuted(
    plan: Plan, seq: int, e: ev.SuggestionNotRefuted, before: Game | None, after: Game
) -> None:
    _answered(
        plan,
        seq,
        e.suggestion,
        after,
        "answer.not_refuted",
        {
            "by_gm": e.by_gm,
            "automatic": e.automatic,
            "penalized": e.penalized,
            **_penalty(after),
        },
        {"outcome": "not_refuted_gm" if e.by_gm else "not_refuted"},
    )


def suggestion_voided(
    plan: Plan, seq: int, e: ev.SuggestionVoided, before: Game | None, after: Game
) -> None:
    _answered(
        plan,
        seq,
        e.suggestion,
        after,
        "suggestion.voided",
        {"refunded": e.refunded},
        {"outcome": "voided"},
    )


def _penalty(game: Game) -> dict[str, Any]:
    """How many suggestions a missed answer costs, for the thread's penalty note."""
    return {"penalty": game.settings.missed_answer_penalty}
