"""Game look-ups: a game's row by id, the open game of a chat topic, a person's games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from engine.state import Phase
from storage.cache import Known
from storage.freshness import Copies, Freshness
from storage.models import GameRecord, MemberRecord

ENDED = Phase.ENDED.value


@dataclass(frozen=True)
class GameRef:
    """Where a game lives, and its phase (the engine's Phase value)."""

    id: int
    chat_id: int
    topic_id: int
    status: str


def _ref(row: Any) -> GameRef:
    return GameRef(row.id, row.chat_id, row.topic_id, row.status)


def open_game(conn: Connection, chat_id: int, topic_id: int) -> Any:
    """The row of the chat topic's game that has not ended, or None."""
    g = GameRecord
    query = select(g).where(g.chat_id == chat_id, g.topic_id == topic_id, g.status != ENDED)
    return conn.execute(query).first()


def find_game(conn: Connection, game_id: int) -> GameRef | None:
    row = conn.execute(select(GameRecord).where(GameRecord.id == game_id)).first()
    return _ref(row) if row is not None else None


def find_open_game(conn: Connection, chat_id: int, topic_id: int) -> GameRef | None:
    row = open_game(conn, chat_id, topic_id)
    return _ref(row) if row is not None else None


def games_of_person(conn: Connection, user_id: int) -> list[GameRef]:
    """Games not ended where the person is in the lobby or holds a seat, oldest first."""
    g, m = GameRecord, MemberRecord
    query = (
        select(g)
        .join(m, m.game_id == g.id)
        .where(m.user_id == user_id, g.status != ENDED)
        .order_by(g.id)
    )
    return [_ref(row) for row in conn.execute(query).all()]


class OpenGames:
    """(chat, topic) -> its game that has not ended, as this process last saw it: a game
    this process opened, moved or ended is known at once; one opened or ended by another
    worker within `seconds` (a worker alone keeps it: storage.freshness)."""

    def __init__(self, freshness: Freshness, seconds: float) -> None:
        self._copies: Copies[tuple[int, int], GameRef] = Copies(freshness, seconds)

    def get(self, chat_id: int, topic_id: int) -> GameRef | None:
        return self._copies.get((chat_id, topic_id))

    def put(self, ref: GameRef) -> None:
        self._copies.put((ref.chat_id, ref.topic_id), ref)

    def written(self, known: Known) -> None:
        """This process wrote the game to `known`: open, or ended."""
        place = (known.chat_id, known.topic_id)
        if known.state.phase == Phase.ENDED:
            self._copies.pop(place)
        else:
            ref = GameRef(known.game_id, known.chat_id, known.topic_id, known.state.phase.value)
            self._copies.put(place, ref)

    def clear(self) -> None:
        self._copies.clear()


def ended_games(conn: Connection, chat_id: int, topic_id: int, limit: int) -> list[GameRef]:
    """The chat topic's ended games, the latest `limit` of them, oldest first."""
    g = GameRecord
    query = (
        select(g)
        .where(g.chat_id == chat_id, g.topic_id == topic_id, g.status == ENDED)
        .order_by(g.id.desc())
        .limit(limit)
    )
    return [_ref(row) for row in reversed(conn.execute(query).all())]
