"""Message texts as Telegram stores them: clean-up, limits, automatic entities, UTF-16.

After parsing (see :mod:`.html`), the text is cleaned like tdlib's ``fix_formatted_text``:
``\\r`` and some invisible characters are removed, other control characters become spaces,
entities made of whitespace only are dropped, and the text is trimmed (spaces and newlines).
Lengths are counted in Unicode code points after all that (the 4096 limit, as tdlib's
``utf8_length``); entity offsets and lengths are in UTF-16 code units, as in the Bot API.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .html import Span, parse_html
from .spec import bad_request

_HIDDEN_DATA = frozenset({"text_link", "text_mention", "custom_emoji"})
_REMOVED = frozenset({"\r", "\u0333", "\u033f", "\u030a"} | {chr(c) for c in range(0x2028, 0x202F)})
_ENTITY_TYPES = frozenset(
    {
        *("mention", "hashtag", "cashtag", "bot_command", "url", "email", "phone_number"),
        *("bold", "italic", "underline", "strikethrough", "spoiler", "blockquote"),
        *("expandable_blockquote", "code", "pre", "text_link", "text_mention", "custom_emoji"),
        "date_time",
    }
)
_AUTO = (
    (
        "bot_command",
        re.compile(r"(?<![\w/<>])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w/<>])"),
    ),
    ("mention", re.compile(r"(?<!\w)@[A-Za-z0-9_]{2,32}(?!\w)")),
    ("url", re.compile(r"\bhttps?://[^\s<>\"]+[^\s<>\".,;:!?)\]']")),
    ("hashtag", re.compile(r"(?<![\w#])#\w*[^\W\d_]\w*")),
)


@dataclass
class Formatted:
    """A text as Telegram stores it: plain text plus entities with UTF-16 offsets."""

    text: str
    entities: list[dict[str, Any]]

    def spans(self, kind: str) -> list[str]:
        """The substrings covered by entities of type ``kind``."""
        return [entity_text(self.text, e) for e in self.entities if e["type"] == kind]


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def entity_text(text: str, entity: dict[str, Any]) -> str:
    """The part of ``text`` an API entity (UTF-16 offset/length) covers."""
    data = text.encode("utf-16-le")
    start, length = entity["offset"] * 2, entity["length"] * 2
    return data[start : start + length].decode("utf-16-le", errors="replace")


def _fail(message: str) -> Exception:
    return bad_request(f"can't parse entities: {message}")


def spans_from_entities(text: str, entities: list[dict[str, Any]]) -> list[Span]:
    """Convert API entities (UTF-16) to spans, refusing ones outside the text."""
    bounds = [0]
    for c in text:
        bounds.append(bounds[-1] + (2 if ord(c) > 0xFFFF else 1))
    index = {u: k for k, u in enumerate(bounds)}
    spans = []
    for e in entities:
        if e["type"] not in _ENTITY_TYPES:
            raise bad_request(f'can\'t parse entities: unsupported entity type "{e["type"]}"')
        start, end = e["offset"], e["offset"] + e["length"]
        if start < 0 or e["length"] < 0 or end > bounds[-1]:
            raise _fail(f"Entity beginning at UTF-16 offset {start} ends after the end of the text")
        if start not in index or end not in index:
            raise _fail(f"Entity at UTF-16 offset {start} splits a surrogate pair")
        extra = {k: v for k, v in e.items() if k not in ("type", "offset", "length")}
        spans.append(Span(e["type"], index[start], index[end], extra))
    return spans


def clean(text: str, spans: list[Span]) -> tuple[str, list[Span]]:
    """tdlib's clean-up: drop/replace characters, drop blank entities, trim."""
    kept: list[str] = []
    new_index = []
    for c in text:
        new_index.append(len(kept))
        if c in _REMOVED:
            continue
        kept.append(" " if ord(c) < 32 and c != "\n" else c)
    new_index.append(len(kept))
    text = "".join(kept)
    out = []
    for s in spans:
        start, end = new_index[s.start], new_index[s.end]
        if s.type not in _HIDDEN_DATA:
            while start < end and text[start] in " \n":
                start += 1
            if not text[start:end].strip(" \n"):
                continue
        if end > start:
            out.append(Span(s.type, start, end, s.extra))
    last = max((k for k, c in enumerate(text) if c not in " \n"), default=-1)
    if last < 0:
        return "", []
    text = text[: last + 1]
    first_entity = min((s.start for s in out), default=len(text))
    lead = 0
    while lead < first_entity and text[lead] in " \n":
        lead += 1
    result = []
    for s in out:
        start, end = min(s.start, len(text)) - lead, min(s.end, len(text)) - lead
        if end > start:
            result.append(Span(s.type, start, end, s.extra))
    return text[lead:], result


def auto_spans(text: str, existing: list[Span]) -> list[Span]:
    """Entities Telegram detects by itself (commands, mentions, URLs, hashtags)."""
    blocked = [s for s in existing if s.type in ("code", "pre", "text_link", "text_mention")]
    found: list[Span] = []
    for kind, pattern in _AUTO:
        for m in pattern.finditer(text):
            if any(b.start < m.end() and m.start() < b.end for b in blocked + found):
                continue
            found.append(Span(kind, m.start(), m.end()))
    return found


def to_api(text: str, spans: list[Span]) -> list[dict[str, Any]]:
    """Spans as API MessageEntity dicts with UTF-16 offsets, sorted like tdlib."""
    bounds = [0]
    for c in text:
        bounds.append(bounds[-1] + (2 if ord(c) > 0xFFFF else 1))
    spans = sorted(spans, key=lambda s: (s.start, -s.end))
    return [
        {
            "type": s.type,
            "offset": bounds[s.start],
            "length": bounds[s.end] - bounds[s.start],
            **s.extra,
        }
        for s in spans
    ]


def format_text(
    text: str, parse_mode: str | None = None, entities: list[dict[str, Any]] | None = None
) -> Formatted:
    """What Telegram makes of a message text with ``parse_mode`` or explicit ``entities``."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        plain, spans = parse_html(text)
    elif mode in ("markdown", "markdownv2"):
        raise bad_request(f'parse_mode "{parse_mode}" is not implemented in the fake; use HTML')
    elif mode:
        raise bad_request(f"unsupported parse_mode {parse_mode}")
    else:
        plain, spans = text, spans_from_entities(text, entities or [])
    plain, spans = clean(plain, spans)
    spans += auto_spans(plain, spans)
    return Formatted(plain, to_api(plain, spans))
