"""/log @player: one player's public history in the chat's game, from `engine.player_log`
(never a card shown, never an accusation's cards)."""

from __future__ import annotations

from typing import Any

from bot.announce.plan import triple, user_at
from bot.context import CustomContext
from bot.handlers.common import Where, refuse, say
from bot.handlers.mentions import Mention
from bot.payload import Moment, User, labels_of
from engine.errors import RuleError
from engine.player_log import LoggedSuggestion, PlayerLog, player_log
from engine.state import Game


async def show_player_log(context: CustomContext, w: Where, game: Game, named: Mention) -> None:
    """The named player's history; a clear answer for an unknown name or a non-player."""
    if named.user_id is None:
        await say(context, w, "parse.unknown_player", {"username": named.typed.lstrip("@")})
        return
    try:
        found = player_log(game, named.user_id)
    except RuleError as error:
        await refuse(context, w, error)
        return
    if found is None:
        await say(context, w, "log.not_a_player", {"player": User(named.user_id)})
        return
    await say(context, w, "log.player", player_log_args(game, found), labels=labels_of(game.pack))


def player_log_args(game: Game, log: PlayerLog) -> dict[str, Any]:
    """The message's arguments: people, cards and moments typed; answers by name."""
    answered = []
    for s in log.answered:
        reply = s.reply_of(log.seat)
        assert reply is not None
        answered.append(
            {**_suggestion(game, s), "answer": reply.answer.value, "by_gm": reply.by_gm}
        )
    return {
        "player": User(user_at(game, log.seat)),
        "made": [_suggestion(game, s) for s in log.made],
        "answered": answered,
        "accusations": [
            {"at": Moment.of(a.at), "turn": a.turn, "correct": a.correct} for a in log.accusations
        ],
    }


def _suggestion(game: Game, s: LoggedSuggestion) -> dict[str, Any]:
    return {
        "number": s.number,
        "day": s.day,
        "turn": s.turn,
        "suggester": User(user_at(game, s.suggester)),
        "target": User(user_at(game, s.replies[0].seat)) if s.replies else None,
        **triple(*s.cards),
        "replies": [
            {"player": User(user_at(game, r.seat)), "answer": r.answer.value, "by_gm": r.by_gm}
            for r in s.replies
        ],
    }
