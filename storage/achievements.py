"""The achievements earned (engine.achievements), stored once per person and key. An ended
game is judged in the very transaction that takes it into the ratings (storage.ratings,
`take_in`), and the messages announcing what it earned are stored with it as owed outbox
rows (one post in the game's thread for the achievements of that game, one private
message per person; bot/owed.py composes them): a crash before the commit leaves neither,
a second pass finds the game taken in, and each row's key is unique, so nothing is told
twice. `Achievements.refold` derives them all again from the games' logs, in the order the
ratings took the games in, with the same fold (`AchievementBook`)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from engine.achievements import BY_KEY, Facts, Tally, facts_of, judge, people, told_in_group
from engine.events import Event, SeatReplaced
from engine.evolve import replay
from engine.ids import UserId
from engine.state import Game
from storage.achievement_models import AchievementRecord, AchievementTallyRecord
from storage.database import Database
from storage.log import read_events
from storage.messages_owed import OutboxItem, insert_items
from storage.models import GameRecord
from storage.rating_lock import lock
from storage.rating_models import RatedGameRecord
from storage.sql import insert_for

COMPOSE = "achievements"  # the owed rows' compose kind (bot/owed.py)


@dataclass(frozen=True)
class Earned:
    """An achievement a person earned, in which game and chat, when that game ended."""

    user_id: int
    key: str
    game_id: int
    chat_id: int
    earned_at: datetime


@dataclass
class AchievementBook:
    """People's tallies and what they have earned, as ended games are folded in."""

    tallies: dict[UserId, Tally] = field(default_factory=dict)
    earned: dict[UserId, dict[str, Earned]] = field(default_factory=dict)

    def take(self, game_id: int, chat_id: int, facts: Facts) -> list[Earned]:
        """Fold one ended game in; what its people earned for the first time."""
        known = {user: frozenset(keys) for user, keys in self.earned.items()}
        judged = judge(facts, self.tallies, known)
        game = facts.game
        self.tallies.update(judged.tallies)
        new = []
        at = game.ended_at or game.created_at
        for user, key in judged.met:
            mine = self.earned.setdefault(user, {})
            if key not in mine:
                mine[key] = Earned(user, key, game_id, chat_id, at)
                new.append(mine[key])
        return new

    def rows(self) -> set[Earned]:
        return {e for keys in self.earned.values() for e in keys.values()}


async def prepare(db: Database, game_ids: Sequence[int]) -> dict[int, Facts]:
    """The facts of ended games about to be taken in, worked out before their transaction
    and off the event loop (the notebook's solves take tens of milliseconds), so that the
    transaction, which holds SQLite's one writer, only judges them."""
    logs = await db.run_read(lambda conn: {g: read_events(conn, g) for g in game_ids})
    return await asyncio.to_thread(_settled, logs)


def _settled(logs: dict[int, list[Event]]) -> dict[int, Facts]:
    """The facts of the rated games among `logs`, their notebook's answers worked out."""
    found = {}
    for game_id, events in logs.items():
        game = replay(events)
        if game is not None and people(game, events):
            found[game_id] = facts_of(game, events).settle()
    return found


def take_in(
    conn: Connection, game_id: int, chat_id: int, topic_id: int, game: Game, facts: Facts | None
) -> None:
    """Judge an ended game (in the ratings' transaction; `facts`: prepared before it, None
    to work them out here): store what its people earned for the first time and their
    tallies, and the messages that announce it."""
    if facts is None:
        facts = facts_of(game, read_events(conn, game_id))
    people = {p.user for p in game.players}
    people |= {e.old_user for e in facts.events if isinstance(e, SeatReplaced)}
    book = AchievementBook(_tallies(conn, people), _earned(conn, people))
    new = book.take(game_id, chat_id, facts)
    _write_tallies(conn, {user: book.tallies[user] for user in people if user in book.tallies})
    if not new:
        return
    conn.execute(insert(AchievementRecord), [_row(e) for e in new])
    at = game.ended_at or game.created_at
    insert_items(conn, announcements(game_id, chat_id, topic_id, new), at, game_id)


def announcements(
    game_id: int, chat_id: int, topic_id: int, new: Sequence[Earned]
) -> list[OutboxItem]:
    """The owed rows that tell a game's new achievements: one post in its thread when any
    of them is of that game alone, and one private message to each person."""
    owed = {"compose": COMPOSE, "game": game_id}
    items = []
    if any(told_in_group(e.key) for e in new):
        items.append(OutboxItem(f"achievements:{game_id}", chat_id, topic_id, payload=owed))
    for user in dict.fromkeys(e.user_id for e in new):
        payload = {**owed, "user": user}
        items.append(OutboxItem(f"achievements:{game_id}:{user}", user, 0, user, payload))
    return items


def _row(e: Earned) -> dict[str, object]:
    return {
        "user_id": e.user_id,
        "key": e.key,
        "game_id": e.game_id,
        "chat_id": e.chat_id,
        "earned_at": e.earned_at,
    }


def _earned_of(r: Any) -> Earned:
    return Earned(r.user_id, r.key, r.game_id, r.chat_id, r.earned_at)


def _tallies(conn: Connection, people: Iterable[int]) -> dict[UserId, Tally]:
    t = AchievementTallyRecord
    rows = conn.execute(select(t).where(t.user_id.in_(list(people)))).all()
    return {r.user_id: Tally(r.games, r.streak, r.clean) for r in rows}


def _earned(conn: Connection, people: Iterable[int]) -> dict[UserId, dict[str, Earned]]:
    a = AchievementRecord
    found: dict[UserId, dict[str, Earned]] = {}
    for row in conn.execute(select(a).where(a.user_id.in_(list(people)))).all():
        found.setdefault(row.user_id, {})[row.key] = _earned_of(row)
    return found


def _write_tallies(conn: Connection, tallies: dict[UserId, Tally]) -> None:
    if not tallies:
        return
    new = insert_for(conn.dialect.name, AchievementTallyRecord)
    upsert = new.on_conflict_do_update(
        index_elements=["user_id"], set_={c: new.excluded[c] for c in ("games", "streak", "clean")}
    )
    rows = [
        {"user_id": u, "games": t.games, "streak": t.streak, "clean": t.clean}
        for u, t in tallies.items()
    ]
    conn.execute(upsert, rows)


def _stored(conn: Connection) -> tuple[set[Earned], dict[UserId, Tally]]:
    earned = {_earned_of(row) for row in conn.execute(select(AchievementRecord)).all()}
    t = AchievementTallyRecord
    rows = conn.execute(select(t)).all()
    return earned, {r.user_id: Tally(r.games, r.streak, r.clean) for r in rows}


def _refold(conn: Connection) -> tuple[int, AchievementBook]:
    """The games taken in, and what they earned folded again in the ratings' order."""
    g, r = GameRecord, RatedGameRecord
    rows = conn.execute(select(g.id, g.chat_id).join(r, r.game_id == g.id).order_by(r.seq)).all()
    book = AchievementBook()
    for row in rows:
        events = read_events(conn, row.id)
        game = replay(events)
        if game is not None:
            book.take(row.id, row.chat_id, facts_of(game, events))
    return len(rows), book


def _differ(stored: tuple[set[Earned], dict[UserId, Tally]], book: AchievementBook) -> int:
    earned, tallies = stored
    folded = book.rows()
    differ = len(earned ^ folded)
    return (
        differ
        + sum(tallies.get(u) != t for u, t in book.tallies.items())
        + len(tallies.keys() - book.tallies.keys())
    )


def _replace(conn: Connection, games: int, book: AchievementBook) -> int | None:
    """Store the fold where it differs (no announcement); None: a game was taken in since."""
    lock(conn)
    if conn.execute(select(func.count()).select_from(RatedGameRecord)).scalar_one() != games:
        return None
    differ = _differ(_stored(conn), book)
    if differ:
        conn.execute(delete(AchievementRecord))
        conn.execute(delete(AchievementTallyRecord))
        rows = [_row(e) for e in sorted(book.rows(), key=lambda e: (e.user_id, e.key))]
        if rows:
            conn.execute(insert(AchievementRecord), rows)
        _write_tallies(conn, book.tallies)
    return differ


class Achievements:
    """What people earned: a person's (/me), a game's (its announcements), and the check
    of the stored ones against the games' logs."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def of_person(self, user_id: int) -> list[Earned]:
        """A person's achievements, in the order of the list (engine.achievements)."""
        found = await self.db.run_read(_earned, [user_id])
        return sorted(found.get(user_id, {}).values(), key=lambda e: _order(e.key))

    async def of_game(self, game_id: int) -> list[Earned]:
        """What a game's people earned in it, by person, each in the list's order."""
        a = AchievementRecord

        def read(conn: Connection) -> list[Earned]:
            return [_earned_of(r) for r in conn.execute(select(a).where(a.game_id == game_id))]

        found = await self.db.run_read(read)
        return sorted(found, key=lambda e: (e.user_id, _order(e.key)))

    async def differ(self) -> int:
        """How many stored achievements and tallies differ from the games' logs."""
        stored = await self.db.run_read(_stored)
        return _differ(stored, (await self.db.run_read(_refold))[1])

    async def recompute(self) -> int:
        """Fold every game again and store the result where it differs (told to nobody)."""
        while True:
            games, book = await self.db.run_read(_refold)
            written = await self.db.run_write(_replace, games, book)
            if written is not None:
                return written


def _order(key: str) -> int:
    return list(BY_KEY).index(key) if key in BY_KEY else len(BY_KEY)
