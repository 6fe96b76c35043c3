"""When a day that opens now ends: a fixed length, or a fixed local time in a time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from engine.settings import Settings


def day_end(settings: Settings, opened_at: datetime) -> datetime:
    """The end of a day opened at `opened_at`.

    With `day_ends_at`, the day ends at the first occurrence of that local time (in
    `timezone`, daylight saving respected) that leaves at least half a day length,
    so a day opened just before the hour does not end at once.
    """
    if settings.day_ends_at is None:
        return opened_at + settings.day_length
    zone = ZoneInfo(settings.timezone)
    earliest = opened_at + settings.day_length / 2
    local_date = earliest.astimezone(zone).date()
    for offset in range(3):
        naive = datetime.combine(local_date + timedelta(days=offset), settings.day_ends_at)
        candidate = _resolve_local(naive, zone)
        if candidate >= earliest:
            return candidate
    raise AssertionError("a local time recurs within three days")  # pragma: no cover


def _resolve_local(naive: datetime, zone: ZoneInfo) -> datetime:
    """A wall-clock time in a zone as UTC (PEP 495 fold=0).

    A time skipped by a spring-forward jump moves forward by the jump; a time that
    occurs twice in the autumn means its first occurrence.
    """
    return naive.replace(tzinfo=zone).astimezone(UTC)
