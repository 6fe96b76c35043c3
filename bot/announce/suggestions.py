"""A suggestion in the thread, the target's private prompt, and how it was answered or voided.

Secrecy: a shown card goes only to the suggester (and back to the target's own prompt)."""

from __future__ import annotations

from typing import Any

from bot import callbacks as cb
from bot.announce.days import ends_day
from bot.announce.plan import Plan, triple, user_at
from bot.announce.views import answer_prompt_args
from bot.payload import Card, User
from engine import events as ev
from engine.state import Answer, Game, Suggestion


def suggestion_key(game_id: int, suggestion: int) -> str:
    return f"g{game_id}:s{suggestion}"


def prompt_key(game_id: int, suggestion: int, target: int) -> str:
    """The answer prompt of a suggestion, as sent to the person holding the target seat."""
    return f"g{game_id}:prompt{suggestion}:u{target}"


def answer_buttons(
    game_id: int, suggestion: int, cards: tuple[str, ...]
) -> list[list[dict[str, str]]]:
    if not cards:
        data = cb.Callback(cb.NO_REFUTATION, game_id, (str(suggestion),)).encode()
        return [[{"t": "button.no_refutation", "data": data}]]
    return [
        [{"card": card, "data": cb.Callback(cb.REFUTE, game_id, (str(suggestion), card)).encode()}]
        for card in cards
    ]


def suggestion_made(
    plan: Plan, seq: int, e: ev.SuggestionMade, before: Game | None, after: Game
) -> None:
    game_id = plan.ctx.game_id
    suggester, target = user_at(after, e.suggester), user_at(after, e.target)
    plan.group(
        suggestion_key(game_id, e.suggestion),
        "suggestion.made",
        {
            "number": e.number,
            "suggester": User(suggester),
            "target": User(target),
            **triple(e.suspect, e.weapon, e.place),
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
    target = user_at(game, s.target)
    args, choices = answer_prompt_args(game, s)
    plan.private(
        prompt_key(plan.ctx.game_id, s.id, target),
        target,
        "dm.answer_prompt",
        args,
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
    """The thread's reply to the suggestion (at a day's end, a line of the day's post); the
    target's prompt keeps the suggestion and says how it ended (`outcome`: what was shown,
    or that it was voided)."""
    game_id = plan.ctx.game_id
    s = after.suggestion(suggestion_id)
    assert s is not None
    target = user_at(after, s.target)
    base = {
        "number": s.number,
        "suggester": User(user_at(after, s.suggester)),
        "target": User(target),
    }
    if not ends_day(plan):  # else the day's end post tells the GM's answers (announce.days)
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
        cards = triple(s.suspect, s.weapon, s.place)
        plan.edit(
            plan.key(seq, "prompt"),
            prompt_key(game_id, suggestion_id, target),
            "dm.prompt_closed",
            {**base, **cards, **outcome},
            user=target,
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
        {"outcome": "refuted_gm" if e.by_gm else "refuted", "shown": Card(e.card)},
    )
    suggester, target = user_at(after, s.suggester), user_at(after, s.target)
    plan.private(
        plan.key(seq, "shown"),
        suggester,
        "dm.card_shown",
        {
            "number": s.number,
            "target": User(target),
            "shown": Card(e.card),
            "by_gm": e.by_gm,
            "standing": e.standing,  # so nobody reads the GM's own order into it
        },
    )
    if e.by_gm and after.players[s.target].active:
        plan.private(
            plan.key(seq, "gm"),
            target,
            _gm_answered(after, s.target, e),
            {
                "number": s.number,
                "suggester": User(suggester),
                "shown": Card(e.card),
                "penalized": e.penalized,
                "penalty": after.settings.missed_answer_penalty,
                "count": after.settings.missed_answer_penalty,
            },
        )


def _gm_answered(game: Game, seat: int, e: ev.SuggestionRefuted) -> str:
    """What the target is told of the GM's answer for them: away (their own word), excused
    (the deadline fell due while the bot was down), or late (with the penalty, if any)."""
    if game.players[seat].away_at(e.at):
        return "dm.gm_answered_away"
    if not e.penalized and game.settings.missed_answer_penalty > 0:
        return "dm.gm_answered_excused"
    return "dm.gm_answered"


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
