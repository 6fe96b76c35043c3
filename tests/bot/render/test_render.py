"""Rendering details: durations; mentions are escaped (splitting: test_splitting.py)."""

from __future__ import annotations

from datetime import timedelta

from bot.render.reader import Person, Reader, duration_text


def test_durations_read_naturally_in_both_languages() -> None:
    assert duration_text("en", timedelta(days=1, hours=2)) == "1 day 2 hours"
    assert duration_text("ru", timedelta(hours=2, minutes=5)) == "2 часа 5 минут"


def test_names_are_escaped_and_link_to_the_person() -> None:
    reader = Reader("en", people={5: Person("<b>Eve</b> & co")})
    assert reader.mention(5) == '<a href="tg://user?id=5">&lt;b&gt;Eve&lt;/b&gt; &amp; co</a>'
    assert reader.mention(6).startswith('<a href="tg://user?id=6">')
