"""/stats in a group: the records of the chat topic's finished games."""

from __future__ import annotations

from telegram import Update

from bot.context import CustomContext
from bot.handlers.common import group_update, say
from bot.payload import User
from engine.stats import chat_records

MAX_GAMES = 500  # the latest games counted


async def stats(update: Update, context: CustomContext) -> None:
    """/stats: games played and how they ended, each detective's wins, lengths."""
    w = await group_update(update, context)
    if w is None:
        return
    store = context.services.store
    refs = await store.ended_games(w.chat.id, w.topic_id, MAX_GAMES)
    records = chat_records([await store.load(ref.id) for ref in refs])
    if not records.played and not records.computer_games:
        await say(context, w, "stats.none")
        return
    quickest = None
    if records.quickest is not None:
        length, winner, table = records.quickest
        quickest = {"n": length, "player": User(winner), "table": table}
    args = {
        "played": records.played,
        "won": records.won,
        "no_winner": records.no_winner,
        "ended": records.ended_by_admin,
        "suggestions": records.suggestions,
        "forum_days": records.forum_days,
        "table_turns": records.table_turns,
        "quickest": quickest,
        "computer_games": records.computer_games,
        "computer_won": records.computer_won,
        "computer_people_won": records.computer_people_won,
        "players": [
            {"player": User(r.user), "won": r.won, "played": r.played} for r in records.players
        ],
    }
    await say(context, w, "stats.chat", args)
