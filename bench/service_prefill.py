"""Running games stored before the bot starts, for `bench.service --running-games`."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import asyncpg
from sqlalchemy.engine import make_url

from bot.announce.table import plan_messages
from engine import commands as cmd
from engine.cards import Category
from engine.settings import Settings
from storage.service import Store

STRICT = Settings(auto_no_refutation=False)  # every suggestion waits for its answer


async def prefill(url: str, games: int, players: int = 4) -> None:
    """`games` started games (chats no one is in), each with one unanswered suggestion due
    within the day as usual; their messages marked sent, so the bot only schedules them."""
    if games == 0:
        return
    store = await Store.open(url)
    now = datetime.now(UTC)
    try:
        for n in range(games):
            opening = cmd.OpenLobby(actor=1, seed=n, settings=STRICT)
            outcome = await store.create_game(-2_000_000 - n, 0, opening, now, plan_messages)
            for user in range(2, players + 1):
                await store.execute(outcome.game_id, cmd.JoinLobby(actor=user), now, plan_messages)
            outcome = await store.execute(
                outcome.game_id, cmd.StartGame(actor=1), now, plan_messages
            )
            game = outcome.state
            suggestion = cmd.MakeSuggestion(
                actor=1,
                target=2,
                suspect=game.in_play(Category.SUSPECT)[0],
                weapon=game.in_play(Category.WEAPON)[0],
                place=game.in_play(Category.PLACE)[0],
            )
            await store.execute(outcome.game_id, suggestion, now, plan_messages)
    finally:
        await store.close()
    sql = "UPDATE outbox SET status = 'sent'"
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        with sqlite3.connect(str(parsed.database)) as conn:
            conn.execute(sql)
    else:
        plain = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        conn = await asyncpg.connect(plain)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
