"""Many started games whose day ends (and answers) fall due at the same moment."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.editions.registry import shipped
from engine import commands as cmd
from engine.cards import Category
from engine.settings import Settings
from storage.service import Store

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
STRICT = Settings(auto_no_refutation=False)  # every suggestion waits for its answer


async def crowd(
    store: Store,
    games: int,
    players: int = 4,
    *,
    now: datetime = START,
    first_chat: int = -1_000_000,
) -> list[int]:
    """`games` started games (chats `first_chat`, `first_chat - 1`, …) begun at `now`, each
    with one unanswered suggestion; their ids."""
    plan_messages = shipped().plan_messages
    ids = []
    for n in range(games):
        opening = cmd.OpenLobby(actor=1, seed=n, settings=STRICT)
        outcome = await store.create_game(first_chat - n, 0, opening, now, plan_messages)
        for user in range(2, players + 1):
            await store.execute(outcome.game_id, cmd.JoinLobby(actor=user), now, plan_messages)
        outcome = await store.execute(outcome.game_id, cmd.StartGame(actor=1), now, plan_messages)
        game = outcome.state
        suggestion = cmd.MakeSuggestion(
            actor=1,
            target=2,
            suspect=game.in_play(Category.SUSPECT)[0],
            weapon=game.in_play(Category.WEAPON)[0],
            place=game.in_play(Category.PLACE)[0],
        )
        await store.execute(outcome.game_id, suggestion, now, plan_messages)
        ids.append(outcome.game_id)
    return ids
