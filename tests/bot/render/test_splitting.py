"""Long HTML messages split for Telegram: every part parses on its own, fits Telegram's length
(UTF-16 units after entity parsing), and together the parts show the original text with the
same formatting. Parts are checked with the fake Bot API's parser (tdlib's rules)."""

from __future__ import annotations

import html

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.splitting import LIMIT, split_text, utf16_length
from fakebot.html import parse_html

_CHARACTERS = st.sampled_from(
    [*"abcxyz", " ", " ", "\n", "\n", "&", "<", ">", '"', "'", "é", "ж", "😀", "👩‍👩‍👧", "\t"]
)
_WORD = st.one_of(
    st.lists(_CHARACTERS, min_size=1, max_size=30).map("".join),
    st.integers(30, 300).map(lambda n: "w" * n),  # a long word without spaces
    st.integers(2, 40).map(lambda n: "\n" * n),  # many empty lines
).map(html.escape)
_ELEMENTS = ("b", "i", "u", "s", "tg-spoiler")
_LINKS = ('<a href="tg://user?id=42">', '<a href="https://example.com/?a=1&amp;b=%22x%22">')


def _element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    simple = st.tuples(st.sampled_from(_ELEMENTS), children).map(
        lambda pair: f"<{pair[0]}>{pair[1]}</{pair[0]}>"
    )
    link = st.tuples(st.sampled_from(_LINKS), children).map(lambda p: f"{p[0]}{p[1]}</a>")
    return st.one_of(simple, link)


_FRAGMENT = st.recursive(
    _WORD,
    lambda children: st.one_of(_element(children), st.lists(children, max_size=6).map("".join)),
    max_leaves=30,
)


def _letters(text: str) -> list[tuple[str, frozenset[tuple[str, str]]]]:
    """Each visible character with its formatting: which entities (and links) cover it."""
    visible, spans = parse_html(text)
    marks: list[set[tuple[str, str]]] = [set() for _ in visible]
    for span in spans:
        for i in range(span.start, span.end):
            marks[i].add((span.type, str(sorted(span.extra.items()))))
    return [(c, frozenset(m)) for c, m in zip(visible, marks, strict=True)]


def _check(text: str, limit: int) -> list[str]:
    parts = split_text(text, limit)
    original, _ = parse_html(text)
    shown = [parse_html(part)[0] for part in parts]  # raises if a part would be refused
    if not original.strip():
        return parts  # nothing to show: Telegram refuses it whole or cut
    assert all(utf16_length(p) <= limit for p in shown), "a part is over the limit"
    if utf16_length(original) > limit:
        assert all(p.strip() for p in shown), "a part with nothing to show"
    assert _is_subsequence("".join(shown), original), "text was added or reordered"
    letters = [x for part in parts for x in _letters(part) if not x[0].isspace()]
    assert letters == [x for x in _letters(text) if not x[0].isspace()], "text or format lost"
    return parts


def _is_subsequence(short: str, long: str) -> bool:
    rest = iter(long)
    return all(c in rest for c in short)


@settings(max_examples=400, deadline=None)
@given(_FRAGMENT, st.integers(2, 80))
def test_parts_of_any_text_are_valid_html_within_a_small_limit(text: str, limit: int) -> None:
    _check(text, limit)


@settings(max_examples=50, deadline=None)
@given(_FRAGMENT.filter(lambda t: len(t) > 20), st.integers(4_000, 14_000))
def test_parts_of_long_messages_are_valid_html_within_telegrams_limit(
    fragment: str, size: int
) -> None:
    text = fragment * (size // len(fragment) + 1)
    parts = _check(text, LIMIT)
    assert len(parts) == 1 or utf16_length(parse_html(text)[0]) > LIMIT


def test_a_long_message_is_cut_between_lines() -> None:
    text = "\n".join(f"<b>line {i}</b> " + "x" * 100 for i in range(200))
    parts = split_text(text)
    assert len(parts) > 1
    assert all(part.endswith("\n") for part in parts[:-1]), "each cut is after a line"
    assert "".join(parts) == text


def test_a_long_line_is_cut_between_words_and_a_long_word_hard() -> None:
    assert split_text("aaa bbb ccc ddd", 9) == ["aaa bbb ", "ccc ddd"]
    assert split_text("abcdefghij", 4) == ["abcd", "efgh", "ij"]


def test_a_cut_never_falls_inside_an_entity_or_a_tag_and_reopens_elements() -> None:
    text = '<b>Salt &amp; Pepper <a href="tg://user?id=7">Mrs &lt;Peacock&gt;</a></b>'
    assert split_text(text, 12) == [
        "<b>Salt &amp; </b>",
        '<b>Pepper <a href="tg://user?id=7">Mrs </a></b>',
        '<b><a href="tg://user?id=7">&lt;Peacock&gt;</a></b>',
    ]


def test_the_limit_counts_utf16_units_so_an_emoji_counts_two() -> None:
    parts = split_text("😀" * 3000)
    assert [len(p) for p in parts] == [2000, 1000]
    assert split_text("😀" * 2000) == ["😀" * 2000]


def test_a_hard_cut_keeps_an_emoji_with_its_skin_tone_and_a_letter_with_its_accent() -> None:
    assert split_text("ab👍🏽", 4) == ["ab", "👍🏽"]
    assert split_text("xxxe\u0301y", 4) == ["xxx", "e\u0301y"]
