"""Long HTML messages cut into parts Telegram accepts, each valid HTML on its own.

Telegram refuses a message longer than 4096 characters of its text *after* entity parsing;
they are counted here in UTF-16 code units (an emoji outside the basic plane counts 2), never
fewer than Telegram counts. A part is never cut inside a tag or an entity (`&amp;`); elements
open at a cut are closed at the end of the part and opened again at the start of the next,
so bold stays bold and a link stays a link. Cuts fall after a line break if one fits, else
after a space, else between two characters (not inside an emoji sequence or before an accent).
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

LIMIT = 4000  # Telegram's 4096, less a margin
_ZWJ = "\u200d"
_TOKEN = re.compile(
    r"""(?P<tag></?(?P<name>[A-Za-z][\w-]*)(?:[^>"']|"[^"]*"|'[^']*')*>)"""
    r"|(?P<entity>&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);?)",
)


@dataclass(frozen=True)
class _Token:
    source: str
    visible: str = ""  # the text it stands for after parsing ("" for a tag)
    tag: str | None = None  # a tag's lowercased name
    closing: bool = False

    @property
    def units(self) -> int:
        return utf16_length(self.visible)


def utf16_length(text: str) -> int:
    """Telegram's length: UTF-16 code units."""
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def split_text(text: str, limit: int = LIMIT) -> list[str]:
    """`text` (Telegram HTML) as parts of at most `limit` visible UTF-16 units each."""
    if len(text.encode("utf-16-le")) // 2 <= limit:  # the markup counts too: surely fits
        return [text]
    tokens = _tokenize(text)
    if sum(token.units for token in tokens) <= limit:
        return [text]
    parts: list[str] = []
    start, open_tags = 0, list[_Token]()
    while start < len(tokens):
        cut = _cut(tokens, start, limit)
        still_open = _open_after(open_tags, tokens[start:cut])
        body = "".join(t.source for t in (*open_tags, *tokens[start:cut]))
        closing = "".join(f"</{t.tag}>" for t in reversed(still_open))
        if "".join(t.visible for t in tokens[start:cut]).strip():
            parts.append(body + closing)  # a part of nothing but spaces is not sent
        start, open_tags = cut, still_open
    return parts or [text]


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    position = 0
    for match in _TOKEN.finditer(text):
        tokens.extend(_Token(c, visible=c) for c in text[position : match.start()])
        source = match.group(0)
        if match.group("tag"):
            closing = source.startswith("</")
            tokens.append(_Token(source, tag=match.group("name").lower(), closing=closing))
        else:
            tokens.append(_Token(source, visible=html.unescape(source)))
        position = match.end()
    tokens.extend(_Token(c, visible=c) for c in text[position:])
    return tokens


def _cut(tokens: list[_Token], start: int, limit: int) -> int:
    """Where the part that begins at `start` ends: after a line, a word, or as late as fits."""
    units, end, last = 0, start, None  # last: just after the last character that fits
    while end < len(tokens) and units + tokens[end].units <= limit:
        units += tokens[end].units
        end += 1
        last = end if tokens[end - 1].visible else last
    if end == len(tokens):
        return end
    if last is None:  # a limit below one character's length: take one anyway
        last = next(i + 1 for i in range(start, len(tokens)) if tokens[i].visible)
    cut = last
    while cut - 1 > start and _joined(tokens[cut - 1], tokens[cut]):
        cut -= 1  # a hard cut keeps "👩‍👩‍👧", "👍🏽" and "é" (e + accent) whole
    solid = next((i for i in range(start, last) if tokens[i].visible.strip()), last)
    for breaks in ("\n", " \t"):  # a line or word after something that is not blank
        found = next((i for i in range(last, solid, -1) if _is(tokens[i - 1], breaks)), None)
        if found is not None:
            cut = found
            break
    while cut < len(tokens) and tokens[cut].closing:  # end tags belong to what they close
        cut += 1
    return cut


def _joined(before: _Token, after: _Token) -> bool:
    """Whether two characters belong to one visible symbol (a grapheme, roughly)."""
    if before.visible == _ZWJ:
        return True
    mark = after.visible[:1]
    return bool(mark) and (
        mark in (_ZWJ, "\ufe0e", "\ufe0f")
        or 0x1F3FB <= ord(mark) <= 0x1F3FF  # skin tones
        or unicodedata.category(mark).startswith("M")
    )


def _is(token: _Token, characters: str) -> bool:
    return bool(token.visible) and token.visible in characters


def _open_after(open_tags: list[_Token], tokens: list[_Token]) -> list[_Token]:
    """The start tags still open after `tokens`, given those open before them."""
    stack = list(open_tags)
    for token in tokens:
        if token.tag is None:
            continue
        if not token.closing:
            stack.append(token)
        elif any(t.tag == token.tag for t in stack):
            while stack.pop().tag != token.tag:
                pass
    return stack
