"""The stored ratings: ended games are taken in (`rate_pending`, run after a command that
ended a game and before any leaderboard is read, so a crash in between loses nothing),
each in one transaction with its number in `rated_games`; `recompute` folds every game
again from its log, in that order, with the same arithmetic (storage.rating_math), and
gives exactly the stored values; a chat's seasons (storage.seasons) split its games where
each began. Leaderboards and a person's ratings are read here."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, delete, func, insert, select, tuple_
from sqlalchemy.engine import Connection

from engine.achievements import Facts
from engine.events import SeatReplaced
from engine.standings import PEOPLE
from engine.state import Game
from storage.achievements import prepare, take_in
from storage.database import Database
from storage.games import ENDED
from storage.log import decode_event, load_state
from storage.models import EventRecord, GameRecord, MemberRecord
from storage.moments import Averages, averages, note_pending
from storage.rating_lock import lock, try_lock
from storage.rating_math import (
    EVERY_CHAT,
    FIRST_SEASON,
    Rating,
    RatingBook,
    RatingKey,
    SeasonStarts,
)
from storage.rating_models import (
    LeaderboardChoiceRecord,
    RatedGameRecord,
    RatingRecord,
    SeasonRecord,
)
from storage.sql import insert_for

BATCH = 10  # games taken in per transaction (a short write: SQLite has one writer)
MIN_GAMES = 3  # rated games before someone appears on a leaderboard


@dataclass(frozen=True)
class Choices:
    """A person's leaderboard choices: `hidden` from every one; listed `everywhere`
    (the leaderboard across chats: off unless they turn it on)."""

    hidden: bool = False
    everywhere: bool = False


@dataclass(frozen=True)
class Recomputed:
    """What a recompute found: games folded, and stored ratings it had to correct."""

    games: int
    differed: int


class Ratings:
    """Every rating, the games taken in, and each person's leaderboard choices."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._turn = asyncio.Lock()

    async def rate_pending(self, *, chat_id: int | None = None, user_id: int | None = None) -> int:
        """Take in every ended game not yet taken in, oldest first; how many. A read finds
        whether any waits, so the usual case (none) takes no write. On PostgreSQL one
        process takes games in at a time: another that finds it busy leaves them to it
        (the busy one looks again before it stops, and every leaderboard read does too).

        With `chat_id` (not EVERY_CHAT) the read looks only among that chat's games, with
        `user_id` among that person's (their seats and lobbies): all a chat's leaderboard,
        or a person's ratings, depend on. The look then costs that chat's or person's
        games, not every game in the database."""
        total = 0
        async with self._turn:  # one rater in this process: a burst of ends prepares once
            while await self.db.run_read(_any_pending, chat_id, user_id):
                waiting = await self.db.run_read(_next_pending)
                facts = await prepare(self.db, waiting)  # the achievements' slow part, first
                done = await self.db.run_write(_rate_batch, BATCH, facts)
                if done is None:
                    break
                total += done
        return total

    async def stored(self) -> dict[RatingKey, Rating]:
        return await self.db.run_read(_stored)

    async def computed(self) -> dict[RatingKey, Rating]:
        """Every rating folded again from the games' logs (nothing written)."""
        await self.rate_pending()
        return (await self.db.run_read(_refold))[1].ratings

    async def recompute(self) -> Recomputed:
        """Fold every game again and store the result where it differs."""
        while True:
            await self.rate_pending()
            seq, book = await self.db.run_read(_refold)
            written = await self.db.run_write(_replace_all, seq, book)
            if written is not None:
                return Recomputed(games=seq, differed=written)

    async def leaderboard(
        self,
        chat_id: int,
        family: str,
        *,
        season: int = FIRST_SEASON,
        limit: int = 10,
        min_games: int = MIN_GAMES,
    ) -> list[tuple[int, Rating]]:
        """The chat's best people in a family's games of a season (chat EVERY_CHAT: those
        listed everywhere), by mu - 3 sigma; hidden people never appear."""
        return await self.db.run_read(_leaderboard, chat_id, family, season, limit, min_games)

    async def of_person(self, user_id: int) -> dict[RatingKey, Rating]:
        """A person's ratings across every chat, by family and pool."""
        return await self.db.run_read(_of_person, user_id)

    async def note_pending(self, limit: int | None = None) -> int:
        """Note when the notebooks of the rated games not yet noted forced the envelope
        against when their holders accused, newest first, at most `limit` games (slow:
        storage.moments); how many games."""
        return await note_pending(self.db, limit)

    async def moments(self, user_id: int) -> list[Averages]:
        """A person's notebook and accusation moments, averaged per family."""
        return await averages(self.db, user_id)

    async def choices(self, user_id: int) -> Choices:
        return await self.db.run_read(_choices, user_id)

    async def set_choices(self, user_id: int, choices: Choices) -> None:
        await self.db.run_write(_set_choices, user_id, choices)


def _pending() -> Select[int, int, int, int]:
    """Ended games not yet taken in, oldest first."""
    g, r = GameRecord, RatedGameRecord
    return (
        select(g.id, g.chat_id, g.topic_id, g.last_seq)
        .outerjoin(r, r.game_id == g.id)
        .where(g.status == ENDED, r.game_id.is_(None))
        .order_by(g.id)
    )


def _any_pending(conn: Connection, chat_id: int | None, user_id: int | None) -> bool:
    query, g = _pending(), GameRecord
    if chat_id is not None and chat_id != EVERY_CHAT:
        query = query.where(g.chat_id == chat_id)
    if user_id is not None:
        m = MemberRecord
        query = query.where(g.id.in_(select(m.game_id).where(m.user_id == user_id)))
    return conn.execute(query.limit(1)).first() is not None


def _next_pending(conn: Connection) -> list[int]:
    """The next batch of games to take in (none: nothing waits)."""
    return list(conn.execute(_pending().limit(BATCH)).scalars())


def _rate_batch(conn: Connection, limit: int, facts: dict[int, Facts]) -> int | None:
    """Up to `limit` games taken in, each with its achievements (`facts`: those prepared
    for them); None when another process is taking them in."""
    if not try_lock(conn):
        return None
    r = RatedGameRecord
    pending = conn.execute(_pending().limit(limit)).all()
    seq = last_rated(conn)
    starts = _season_starts(conn, {row.chat_id for row in pending})
    for row in pending:
        seq += 1
        season = starts.of(row.chat_id, seq)
        book = RatingBook()
        game, replaced = _game(conn, row.id, row.last_seq)
        book.ratings.update(_read(conn, book.keys(row.chat_id, game, replaced, season)))
        changed = book.rate(row.chat_id, game, replaced, season)
        _write(conn, changed)
        if changed:  # a rated game: its achievements and their messages, in this transaction
            take_in(conn, row.id, row.chat_id, row.topic_id, game, facts.get(row.id))
        conn.execute(insert(r), {"game_id": row.id, "seq": seq, "rated": bool(changed)})
    return len(pending)


def rate_all_pending(conn: Connection) -> None:
    """Take in every ended game still waiting, in this transaction (in the raters' turn:
    as a season begins, so that the games ended before it count in the season before)."""
    while _rate_batch(conn, BATCH, {}):  # the achievements' facts worked out here
        pass


def last_rated(conn: Connection) -> int:
    """The number of the game taken in last (0: none yet)."""
    r = RatedGameRecord
    return int(conn.execute(select(func.coalesce(func.max(r.seq), 0))).scalar_one())


def _season_starts(conn: Connection, chats: set[int] | None = None) -> SeasonStarts:
    """Where the seasons of these chats (None: of every chat) begin."""
    s = SeasonRecord
    query = select(s.chat_id, s.number, s.after_seq)
    if chats is not None:
        query = query.where(s.chat_id.in_(chats))
    return SeasonStarts((r.chat_id, r.number, r.after_seq) for r in conn.execute(query).all())


def _game(conn: Connection, game_id: int, last_seq: int) -> tuple[Game, list[SeatReplaced]]:
    """An ended game's state and the seats handed over in it."""
    game = load_state(conn, game_id, last_seq)
    assert game is not None, f"game {game_id} ended with no events"
    e = EventRecord
    query = select(e.data).where(e.game_id == game_id, e.type == SeatReplaced.__name__)
    replaced = [decode_event(data) for data in conn.execute(query.order_by(e.seq)).scalars()]
    return game, [event for event in replaced if isinstance(event, SeatReplaced)]


def _refold(conn: Connection) -> tuple[int, RatingBook]:
    """The number of games taken in, and every rating folded from them in their order."""
    g, r = GameRecord, RatedGameRecord
    rows = conn.execute(
        select(g.id, g.chat_id, g.last_seq, r.seq).join(r, r.game_id == g.id).order_by(r.seq)
    ).all()
    starts = _season_starts(conn)
    book = RatingBook()
    for row in rows:
        game, replaced = _game(conn, row.id, row.last_seq)
        book.rate(row.chat_id, game, replaced, starts.of(row.chat_id, row.seq))
    return len(rows), book


def _replace_all(conn: Connection, games: int, book: RatingBook) -> int | None:
    """Store the folded ratings where they differ; None when a game was taken in since."""
    lock(conn)
    if conn.execute(select(func.count()).select_from(RatedGameRecord)).scalar_one() != games:
        return None
    stored = _stored(conn)
    differed = sum(stored.get(k) != v for k, v in book.ratings.items())
    differed += sum(k not in book.ratings for k in stored)
    if differed:
        conn.execute(delete(RatingRecord))
        _write(conn, book.ratings)
    return differed


def _row(key: RatingKey, rating: Rating) -> dict[str, object]:
    return {
        "chat_id": key.chat_id,
        "season": key.season,
        "family": key.family,
        "pool": key.pool,
        "subject": key.subject,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games": rating.games,
        "wins": rating.wins,
        "accused_right": rating.right,
        "accused_wrong": rating.wrong,
    }


def _rating(r: Any) -> tuple[RatingKey, Rating]:
    key = RatingKey(r.chat_id, r.family, r.pool, r.subject, r.season)
    return key, Rating(r.mu, r.sigma, r.games, r.wins, r.accused_right, r.accused_wrong)


def _write(conn: Connection, ratings: dict[RatingKey, Rating]) -> None:
    if not ratings:
        return
    rows = [_row(key, rating) for key, rating in ratings.items()]
    new = insert_for(conn.dialect.name, RatingRecord)
    columns = ("mu", "sigma", "games", "wins", "accused_right", "accused_wrong")
    upsert = new.on_conflict_do_update(
        index_elements=["chat_id", "season", "family", "pool", "subject"],
        set_={c: new.excluded[c] for c in columns},
    )
    conn.execute(upsert, rows)


def _read(conn: Connection, keys: Iterable[RatingKey]) -> dict[RatingKey, Rating]:
    wanted = [(k.chat_id, k.season, k.family, k.pool, k.subject) for k in set(keys)]
    if not wanted:
        return {}
    t = RatingRecord
    columns = tuple_(t.chat_id, t.season, t.family, t.pool, t.subject)
    rows = conn.execute(select(t).where(columns.in_(wanted))).all()
    return dict(_rating(row) for row in rows)


def _stored(conn: Connection) -> dict[RatingKey, Rating]:
    return dict(_rating(row) for row in conn.execute(select(RatingRecord)).all())


def _leaderboard(
    conn: Connection, chat_id: int, family: str, season: int, limit: int, min_games: int
) -> list[tuple[int, Rating]]:
    t, c = RatingRecord, LeaderboardChoiceRecord
    hidden = select(c.user_id).where(c.hidden)
    query = select(t).where(
        t.chat_id == chat_id,
        t.season == season,
        t.family == family,
        t.pool == PEOPLE,
        t.games >= min_games,
        t.subject.not_in(hidden),
    )
    if chat_id == EVERY_CHAT:
        query = query.where(t.subject.in_(select(c.user_id).where(c.everywhere)))
    query = query.order_by((t.mu - 3 * t.sigma).desc(), t.subject).limit(limit)
    found = [_rating(row) for row in conn.execute(query).all()]
    return [(key.subject, rating) for key, rating in found]


def _of_person(conn: Connection, user_id: int) -> dict[RatingKey, Rating]:
    t = RatingRecord
    query = select(t).where(t.chat_id == EVERY_CHAT, t.subject == user_id)
    return dict(_rating(row) for row in conn.execute(query).all())


def _choices(conn: Connection, user_id: int) -> Choices:
    c = LeaderboardChoiceRecord
    row = conn.execute(select(c).where(c.user_id == user_id)).first()
    return Choices() if row is None else Choices(row.hidden, row.everywhere)


def _set_choices(conn: Connection, user_id: int, choices: Choices) -> None:
    new = insert_for(conn.dialect.name, LeaderboardChoiceRecord)
    values = {"hidden": choices.hidden, "everywhere": choices.everywhere}
    upsert = new.values(user_id=user_id, **values).on_conflict_do_update(
        index_elements=["user_id"], set_=values
    )
    conn.execute(upsert)
