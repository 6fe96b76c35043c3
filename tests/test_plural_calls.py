"""Every plural gets its number, checked over the source with `ast` (issue 39): each call of
`locales.t` (and of its wrappers) that may render a plural message gives it a `count`,
the number the message shows; a plural message kind given as data carries its count.

What cannot be read statically is listed here, each with what renders it instead: the
played games of every format in all eight languages (tests/bot/render/test_rendering_games.py)
and the end-to-end tests, under `locales.CHECKS.plurals` (a plural given no count fails).
"""

from __future__ import annotations

import ast
from functools import cache

from locales import catalog
from tests.support.plural_calls import (
    READ,
    Site,
    Unread,
    data_count,
    given,
    literals,
    matching,
    same_number,
    sites,
    translations,
)

EN = catalog("en")
KEYS = sorted(EN)
PLURALS = sorted(key for key, entry in EN.items() if isinstance(entry, dict))

# A plural message that shows its number in a placeholder of its own (the count is given
# beside it, the same number): /status's seat line, /stats' averages, the penalty notes.
SHOWN_AS = {
    "status.seat": "left",
    "stats.forum_days": "days",
    "stats.table_turns": "turns",
    "answer.penalty_note": "penalty",
    "dm.gm_answered_penalty": "penalty",
    "digest.used": "quota",
}

# `t` calls whose key is not in the source, and what renders them instead.
UNREAD = {
    "bot/editions/messages.py": "msg",  # a payload's kind: the kinds' own test below, rendering
    "bot/render/keyboards.py": "str(spec['t'])",  # a button's text: buttons of played games
    "bot/editions/liars/messages.py": "str(value['t'])",  # a card's text in a Liars message
    "bot/web/notebook_app.py": "refusal.key",  # the notebook app's refusals (tests/bot/web)
    "bot/web/notebook_words.py": "key",  # the app's legend, from a list of pairs
}

# Plural calls whose count comes from a payload's arguments (`**flat_args(reader, call)`),
# and what gives it: the day's end post's calls for a replacement carry "count"
# (bot/announce/days.py); an index line's kinds are its moments, never "earlier".
COUNT_FROM_PAYLOAD = {
    ("bot/render/game_messages.py", "replacement.wanted"),
    ("bot/render/index_text.py", "index.earlier"),
}


@cache
def _sites() -> tuple[list[Site], list[Unread]]:
    return sites()


def _plural_sites() -> list[tuple[str, Site]]:
    found, _ = _sites()
    return [(key, site) for site in found for key in matching(site.pattern, PLURALS)]


def test_the_source_is_read() -> None:
    """The reader finds the calls it should (a test that reads nothing proves nothing)."""
    assert len(list(translations())) > 250
    found, _ = _sites()
    read = {key for site in found for key in matching(site.pattern, KEYS)}
    assert {"status.seat", "stats.forum_days", "dm.reminder_left", "suggestion.made"} <= read
    assert len(read) > 500


def test_every_plural_call_gives_a_count() -> None:
    """A call that may render a plural message names `count` (a wrapper's caller does, for
    a wrapper that passes its `**values` on)."""
    missing = [
        f"{site.where}: {key} ({site.count})"
        for key, site in _plural_sites()
        if site.count == "no" and site.pattern != ".*"
    ]
    assert missing == [], "plural messages rendered with no count:\n  " + "\n  ".join(missing)


def test_what_cannot_be_told_of_a_count_is_known() -> None:
    found = {
        (site.where.split(":")[0], key)
        for key, site in _plural_sites()
        if site.count not in ("yes", "no")
    }
    assert found == COUNT_FROM_PAYLOAD


def test_a_plural_shows_the_number_it_is_given() -> None:
    """Where a plural shows its number in a placeholder of its own, the call gives `count`
    the same number (`left=seat["left"], count=seat["left"]`; `days=decimal(lang, days),
    count=days`)."""
    wrong = []
    for key, site in _plural_sites():
        placeholder = SHOWN_AS.get(key)
        if placeholder is None or site.number is None:
            continue
        shown = given(site.call, placeholder)
        if shown is not None and not same_number(site.number, shown):
            numbers = f"count={ast.unparse(site.number)}, {placeholder}={ast.unparse(shown)}"
            wrong.append(f"{site.where}: {key}: {numbers}")
    assert wrong == []


def test_every_plural_without_count_placeholder_names_where_its_number_is() -> None:
    for key in PLURALS:
        texts = EN[key].values()
        shown = SHOWN_AS.get(key, "count")
        assert all(f"{{{shown}}}" in text for text in texts), key


def test_every_plural_message_kind_given_as_data_carries_its_count() -> None:
    """A plural key written as data (a payload's kind, a wrapper's argument) sits beside a
    dict of arguments with "count" (or a list of people, whose length is the count)."""
    _sites()
    wrong = []
    for module, node in literals():
        if node.value not in PLURALS or node in READ:
            continue
        verdict = data_count(module, node)
        if verdict != "yes":
            wrong.append(f"{module.where(node)}: {node.value}: {verdict}")
    assert wrong == []


def test_what_cannot_be_read_is_known() -> None:
    """A new call whose key cannot be read statically is a decision: read it, or list it
    here with what renders it."""
    _, unread = _sites()
    found = {(where.split(":")[0], expression) for where, expression in unread}
    assert found == set(UNREAD.items())
