"""Accusations (the thread learns who, never what), the window's close, and the end of the
game: the only message that reveals the envelope, every accusation and every hand, and the
story that follows it (owed with the end, composed after it: bot/owed.py)."""

from __future__ import annotations

from bot.announce.lobby import lobby_key
from bot.announce.plan import Plan, triple, user_at
from bot.payload import Cards, Moment, User
from engine import events as ev
from engine.state import Game


def accusation_made(
    plan: Plan, seq: int, e: ev.AccusationMade, before: Game | None, after: Game
) -> None:
    """The thread learns who accused, never what; the accuser gets a receipt."""
    accuser = user_at(after, e.seat)
    window = after.window
    assert window is not None
    first = any(isinstance(x, ev.WindowOpened) and x.window == e.window for x in plan.ctx.events)
    plan.group(
        plan.key(seq, "accuse"),
        "accusation.made",
        {"accuser": User(accuser), "first": first, "closes_at": Moment.of(window.closes_at)},
    )
    plan.private(
        plan.key(seq, "receipt"),
        accuser,
        "dm.accusation_received",
        {
            **triple(e.suspect, e.weapon, e.place),
            "closes_at": Moment.of(window.closes_at),
        },
    )


def accusation_judged(
    plan: Plan, seq: int, e: ev.AccusationJudged, before: Game | None, after: Game
) -> None:
    if e.correct:
        return  # the end of the game says it
    accuser = user_at(after, e.seat)
    goes_on = plan.ctx.after.running  # once the game has ended, nobody suggests any more
    may_suggest = after.settings.eliminated_may_suggest and goes_on
    plan.group(
        plan.key(seq, "wrong"),
        "accusation.wrong" if goes_on else "accusation.wrong_final",
        {"accuser": User(accuser), "may_suggest": may_suggest},
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


def game_ended(plan: Plan, seq: int, e: ev.GameEnded, before: Game | None, after: Game) -> None:
    """The end reveals everything: envelope, every accusation, every hand."""
    if before is None or after.envelope is None:
        plan.edit(plan.key(seq, "cancel"), lobby_key(plan.ctx.game_id), "lobby.cancelled")
        return
    args = {
        "reason": e.reason,
        "winner": User(user_at(after, e.winner)) if e.winner is not None else None,
        "envelope": Cards(after.envelope),
        "accusations": [
            {"user": User(user_at(after, a.seat)), "cards": list(a.cards), "correct": a.correct}
            for a in after.accusations
        ],
        "hands": [{"user": User(p.user), "cards": list(p.hand)} for p in after.players],
    }
    plan.group(plan.key(seq, "end"), "game.ended", args)
    plan.compose_later(story_key(plan.ctx.game_id), "story")  # the replay comes after the commit


def story_key(game_id: int) -> str:
    """The key of a game's story post (one per game)."""
    return f"g{game_id}:story"
