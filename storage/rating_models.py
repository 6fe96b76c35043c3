"""The ratings' tables (storage.ratings): every rating by scope, the games rated in the
order they were rated, each person's leaderboard choices (migration 0016), each chat's
seasons (0017), and when each notebook forced the envelope against when its holder accused
(0019)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base


class RatingRecord(Base):
    """A subject's rating in a scope (storage.rating_math.RatingKey); chat 0: every chat,
    whose ratings stay in season 1."""

    __tablename__ = "ratings"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    season: Mapped[int] = mapped_column(
        Integer, primary_key=True, autoincrement=False, server_default=text("1")
    )
    family: Mapped[str] = mapped_column(String(16), primary_key=True)
    pool: Mapped[str] = mapped_column(String(16), primary_key=True)
    subject: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    mu: Mapped[float] = mapped_column(Float(precision=53))
    sigma: Mapped[float] = mapped_column(Float(precision=53))
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    accused_right: Mapped[int] = mapped_column(Integer)
    accused_wrong: Mapped[int] = mapped_column(Integer)


class RatedGameRecord(Base):
    """An ended game the ratings have taken in, numbered in the order they were (`seq`:
    a recompute folds them in that order); `rated` is false for one that is not rated."""

    __tablename__ = "rated_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, unique=True)
    rated: Mapped[bool] = mapped_column(Boolean)


class LeaderboardChoiceRecord(Base):
    """A person's choices (/me): hidden from every leaderboard; listed across chats."""

    __tablename__ = "leaderboard_choices"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    hidden: Mapped[bool] = mapped_column(Boolean, server_default=false())
    everywhere: Mapped[bool] = mapped_column(Boolean, server_default=false())


class SeasonRecord(Base):
    """A chat's new season (2, 3, ...; before any, a chat is in season 1): its ratings
    start afresh with the games rated after `after_seq` (the last `rated_games.seq` when
    it began; a recompute splits the games there). Who began it, and when."""

    __tablename__ = "seasons"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    after_seq: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column()
    started_by: Mapped[int] = mapped_column(BigInteger)


class NotebookMomentRecord(Base):
    """For a rated game's seat holder (engine/notebook/moments.py): the day or turn at
    whose end their notebook forced the envelope, and that of their accusation (None:
    never), in the game's rating family. Migration 0019."""

    __tablename__ = "notebook_moments"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        BigInteger, primary_key=True, autoincrement=False, index=True
    )
    family: Mapped[str] = mapped_column(String(16))
    forced: Mapped[int | None] = mapped_column(Integer)
    accused: Mapped[int | None] = mapped_column(Integer)
