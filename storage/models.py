"""The tables, as typed declarative models. Migrations in storage/migrations must match."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Constraint names are fixed so later migrations (batch mode on SQLite) can address them.
NAMING = MappingProxyType(
    {
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

# Row ids: BIGINT on PostgreSQL, INTEGER on SQLite (only INTEGER PRIMARY KEY autoincrements).
RowId = BigInteger().with_variant(Integer(), "sqlite")


class UTCDateTime(TypeDecorator[datetime]):
    """Aware datetimes in, aware UTC datetimes out (SQLite stores naive UTC text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to storage; use an aware one")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        stored: datetime = value
        if stored.tzinfo is None:
            return stored.replace(tzinfo=UTC)
        return stored.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime()}


class GameRecord(Base):
    """One game of one chat topic (topic 0: the chat itself); status mirrors the engine."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    topic_id: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    status: Mapped[str] = mapped_column(String(16))
    last_seq: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    __table_args__ = (
        # At most one game that has not ended per chat topic; ended ones pile up freely.
        Index(
            "uq_games_open_per_topic",
            "chat_id",
            "topic_id",
            unique=True,
            sqlite_where=text("status != 'ended'"),
            postgresql_where=text("status != 'ended'"),
        ),
        Index("ix_games_chat_id_topic_id", "chat_id", "topic_id"),
    )


class EventRecord(Base):
    """The append-only log: (game_id, seq) is the primary key, so a second writer fails."""

    __tablename__ = "events"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(40))
    data: Mapped[str] = mapped_column(Text)
    recorded_at: Mapped[datetime]


class SnapshotRecord(Base):
    """An optional cache of a game's state after event `seq`; replay is the truth."""

    __tablename__ = "snapshots"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(64))
    data: Mapped[str] = mapped_column(Text)
    written_at: Mapped[datetime]


class MemberRecord(Base):
    """Who is in a game's lobby or holds one of its seats (for "my games")."""

    __tablename__ = "game_members"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)

    __table_args__ = (Index("ix_game_members_user_id", "user_id"),)


class ChatSettingsRecord(Base):
    """The defaults a chat's admins set for its new games, and the chat's language; when the
    bot last introduced itself there, and what rights it said it lacks."""

    __tablename__ = "chat_settings"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    settings: Mapped[str] = mapped_column(Text)
    language: Mapped[str | None] = mapped_column(String(16))
    pack: Mapped[str | None] = mapped_column(Text)  # the chat's own card pack, if any
    introduced_at: Mapped[datetime | None]  # when the bot last introduced itself here
    rights_told: Mapped[str | None] = mapped_column(String(64))  # the lacks last told (bot/rights)
    updated_at: Mapped[datetime]


class ChatNameRecord(Base):
    """A chat's title (topic 0) or a forum topic's name, as last seen, to say which game."""

    __tablename__ = "chat_names"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    topic_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(256))
    updated_at: Mapped[datetime]


class PersonRecord(Base):
    """A Telegram user the bot has seen; dm_ok is None until a direct message was tried."""

    __tablename__ = "people"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(256))
    username: Mapped[str | None] = mapped_column(String(64))
    username_key: Mapped[str | None] = mapped_column(String(64), index=True)  # lower case
    language_code: Mapped[str | None] = mapped_column(String(16))  # Telegram's
    dm_ok: Mapped[bool | None]
    reminders: Mapped[bool] = mapped_column(server_default=true())
    language: Mapped[str | None] = mapped_column(String(16))  # chosen with /language
    timezone: Mapped[str | None] = mapped_column(String(64))  # chosen with /timezone
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class NotebookMarkRecord(Base):
    """A player's own mark on one cell of their notebook (a card against an owner: a seat,
    or -1 the envelope): "yes", "no" or "maybe", and a short note of their own."""

    __tablename__ = "notebook_marks"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    card: Mapped[str] = mapped_column(String(64), primary_key=True)
    owner: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    mark: Mapped[str | None] = mapped_column(String(8))
    note: Mapped[str | None] = mapped_column(String(32))
    updated_at: Mapped[datetime]


class IndexPinRecord(Base):
    """Whether a game's index (its pinned summary post) was pinned: `refusal` is Telegram's
    answer when it could not be (no right to pin), else None."""

    __tablename__ = "index_pins"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    message_id: Mapped[int] = mapped_column(BigInteger)
    refusal: Mapped[str | None] = mapped_column(Text)
    at: Mapped[datetime]


class OutboxStatus(StrEnum):
    """Where an outbox row is on its way (stored as the plain string)."""

    PENDING = "pending"  # due at next_attempt_at
    CLAIMED = "claimed"  # a sender holds it until lease_until
    SENT = "sent"
    WAITING = "waiting_for_person"  # parked: the person has not started the bot, or the
    # bot cannot post in the group; released by release_waiting / release_chat
    FAILED = "failed"  # given up for good
    OWED = "owed"  # composed by the bot after the commit that owes it (storage.owed); until
    # then neither claimed by a sender nor holding back its chat

    @classmethod
    def unfinished(cls) -> tuple[OutboxStatus, ...]:
        """Rows still owed; each holds back the later rows of its chat."""
        return (cls.PENDING, cls.CLAIMED, cls.WAITING)


class OutboxRecord(Base):
    """A message owed to a chat or a person, delivered by the sender in id order per chat."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(RowId, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    chat_id: Mapped[int] = mapped_column(BigInteger)
    topic_id: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    payload: Mapped[str] = mapped_column(Text)
    reply_to_key: Mapped[str | None] = mapped_column(String(200))
    # Only told (an index's edit): gives way to the later rows of its chat (storage.claims).
    decoration: Mapped[bool] = mapped_column(Boolean, server_default=false())
    status: Mapped[str] = mapped_column(String(24))
    attempts: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    next_attempt_at: Mapped[datetime]
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    lease_until: Mapped[datetime | None]
    sent_message_id: Mapped[int | None] = mapped_column(BigInteger)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]

    __table_args__ = (
        # The unfinished rows of each chat, oldest first: the head of each chat's queue.
        Index(
            "ix_outbox_unfinished_per_chat",
            "chat_id",
            "id",
            sqlite_where=text("status IN ('pending', 'claimed', 'waiting_for_person')"),
            postgresql_where=text("status IN ('pending', 'claimed', 'waiting_for_person')"),
        ),
        Index("ix_outbox_status_next_attempt_at", "status", "next_attempt_at"),
        Index("ix_outbox_user_id_status", "user_id", "status"),
        Index("ix_outbox_chat_id_sent_message_id", "chat_id", "sent_message_id"),
    )


class DeadlineStatus(StrEnum):
    """A deadline row is pending until it ran and the engine left it as it was."""

    PENDING = "pending"
    DONE = "done"


class DeadlineRecord(Base):
    """A pending deadline of a game, mirrored from engine.deadlines after each command."""

    __tablename__ = "deadlines"

    id: Mapped[int] = mapped_column(RowId, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    key: Mapped[str] = mapped_column(String(64))
    due_at: Mapped[datetime]
    command: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    lease_until: Mapped[datetime | None]
    updated_at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("game_id", "key"),
        Index("ix_deadlines_status_due_at", "status", "due_at"),
    )


class HeartbeatRecord(Base):
    """The last sign of life of each bot process, to tell downtime from lateness."""

    __tablename__ = "heartbeats"

    worker: Mapped[str] = mapped_column(String(100), primary_key=True)
    seen_at: Mapped[datetime]


class HandledUpdateRecord(Base):
    """A game command run for a Telegram update, so that a redelivered update runs nothing.

    `step` counts the game commands one update ran (0 for the first); `game_id` is the game
    the command wrote to. Rows older than Telegram keeps updates are pruned.
    """

    __tablename__ = "handled_updates"

    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    step: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    game_id: Mapped[int] = mapped_column(Integer)
    handled_at: Mapped[datetime] = mapped_column(index=True)


class SendSlotRecord(Base):
    """One slot of the outbound limiter shared through PostgreSQL (bot.delivery.pg_limiter):
    a message to `chat_id` (0: the whole bot's count), answered at `at`, or in flight until
    at most `at`. Rows leave once out of their window."""

    __tablename__ = "send_slots"

    id: Mapped[int] = mapped_column(RowId, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    at: Mapped[float] = mapped_column(Float(precision=53))
    answered: Mapped[bool] = mapped_column(Boolean)

    __table_args__ = (Index("ix_send_slots_chat_id_at", "chat_id", "at"),)


class SendPauseRecord(Base):
    """A chat Telegram answered 429 for: nothing is sent to it before `until` (epoch s)."""

    __tablename__ = "send_pauses"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    until: Mapped[float] = mapped_column(Float(precision=53))
