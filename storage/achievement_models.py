"""The achievements' tables (storage.achievements): each achievement a person earned, once,
with the game and chat it was earned in; and each person's tally over their rated games
(what the achievements over many games read). Migration 0018."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base


class AchievementRecord(Base):
    """An achievement earned: one row per person and key (each is earned once, in the
    first game that met it); `earned_at` is that game's end."""

    __tablename__ = "achievements"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    earned_at: Mapped[datetime]


class AchievementTallyRecord(Base):
    """A person's rated games, wins in a row, and wins since their last wrong accusation
    (engine.achievements.Tally)."""

    __tablename__ = "achievement_tallies"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    games: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer)
    clean: Mapped[int] = mapped_column(Integer)
