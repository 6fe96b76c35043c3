"""Who is who: a person (their Telegram user id) and a seat at the table (0, 1, ...)."""

from __future__ import annotations

UserId = int
Seat = int
