"""The fake's HTML parser reads most messages by a quicker path (plain tags, links, the
named entities): on any text it takes, it gives what the full parser gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fakebot.html import parse_full_html, parse_html, parse_plain_html
from fakebot.spec import ApiError

PIECES = (
    *("<b>", "</b>", "<i>", "</i>", "<code>", "</code>", "<pre>", "</pre>", "<u>", "</u>"),
    *('<a href="tg://user?id=5">', '<a href="https://x.org/?a=1">', '<a href="">', "</a>"),
    *("<blockquote>", "</blockquote>", "<tg-spoiler>", "</tg-spoiler>", "<s>", "</s>"),
    *("&lt;", "&gt;", "&amp;", "&quot;", "&amp", "&#60;", "&foo;", "AT&T", "&"),
    *("<B>", "</>", "<span>", '<span class="tg-spoiler">', "</span>", "<b >", "<x>", "<"),
    *('<a href="a&amp;b">', "<a>", '<b href="x">', "</b >", "<blockquote expandable>"),
    *("Anna", " ", "\n", "Сыщик", "🎲", ">", '"'),
)


def parsed(text: str) -> tuple[str, list[object]] | str:
    try:
        return parse_html(text)  # type: ignore[return-value]
    except ApiError as error:
        return error.description


OPENING = ("<b>", "<i>", "<code>", "<pre>", '<a href="tg://user?id=5">', '<a href="">', "<s>")
WORDS = ("Anna", " ", "\n", "Сыщик", "🎲", ">", "&lt;", "&amp;", "&quot;", "&gt;", "")


def _wrapped(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    tag = st.sampled_from(OPENING)
    closing = {o: "</" + o[1:].split(" ")[0].rstrip(">") + ">" for o in OPENING}
    return st.tuples(tag, st.lists(inner, max_size=3)).map(
        lambda t: t[0] + "".join(t[1]) + closing[t[0]]
    )


NESTED = st.recursive(st.sampled_from(WORDS), _wrapped, max_leaves=12)  # well formed


@settings(max_examples=300)
@given(st.lists(NESTED | st.sampled_from(PIECES), max_size=6).map("".join))
def test_the_plain_path_reads_as_the_full_parser(text: str) -> None:
    quick = parse_plain_html(text)
    if quick is not None:
        assert quick == parse_full_html(text)


@given(st.lists(NESTED, max_size=4).map("".join))
def test_well_formed_plain_texts_take_the_plain_path(text: str) -> None:
    quick = parse_plain_html(text)
    assert quick is not None
    assert quick == parse_full_html(text)


def test_texts_the_plain_path_leaves_are_parsed_in_full() -> None:
    assert parse_plain_html('<a href="tg://user?id=7">Bob</a> &amp; <b>x</b>') is not None
    for text in ("<b>x", "</b>", "<B>x</B>", "<x>", "a & b", "&lt", '<span class="tg-spoiler">'):
        assert parse_plain_html(text) is None, text
    assert "Unmatched end tag" in str(parsed("<b>x</i>"))  # the full parser's words
