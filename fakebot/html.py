"""Telegram's HTML parse mode, following tdlib's ``parse_html``.

The HTML parser follows tdlib's ``parse_html`` (what the Bot API server runs): supported tags
are b/strong, i/em, u/ins, s/strike/del, span class="tg-spoiler", tg-spoiler, a href, code,
pre (optionally with a nested ``code class="language-x"``), blockquote (optionally
``expandable``) and tg-emoji emoji-id; tag names are case-insensitive; ``</>`` closes the
innermost tag.  An unknown tag, an unclosed or mismatched tag and a bare ``<`` are refused with
tdlib's wording ("Unsupported start tag "x" at byte offset N", ...).

Ampersands (a deliberate choice): ``&lt; &gt; &amp; &quot;`` (also without the ``;``, as tdlib
accepts) and numeric ``&#N;``/``&#xN;`` are decoded; an ``&`` that does not look like an entity
(``a & b``, ``AT&T``) is kept literally, as Telegram does.  Telegram also keeps an *unknown*
entity such as ``&nbsp;`` or ``&foo;`` literally, but that almost always means a missing
``html.escape``, so the fake refuses ``&name;`` / ``&#...;`` forms it cannot decode.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .spec import bad_request

_TAGS = frozenset(
    {
        *("a", "b", "strong", "i", "em", "s", "strike", "del", "u", "ins"),
        *("tg-spoiler", "tg-emoji", "span", "pre", "code", "blockquote"),
    }
)
_SIMPLE: Mapping[str, str] = MappingProxyType(
    {
        **dict.fromkeys(("b", "strong"), "bold"),
        **dict.fromkeys(("i", "em"), "italic"),
        **dict.fromkeys(("u", "ins"), "underline"),
        **dict.fromkeys(("s", "strike", "del"), "strikethrough"),
        **dict.fromkeys(("tg-spoiler", "span"), "spoiler"),
    }
)
_NAMED: Mapping[str, str] = MappingProxyType({"lt": "<", "gt": ">", "amp": "&", "quot": '"'})


@dataclass
class Span:
    """An entity in code-point indices (internal form)."""

    type: str
    start: int
    end: int
    extra: dict[str, Any] = field(default_factory=dict)


def _fail(message: str) -> Exception:
    return bad_request(f"can't parse entities: {message}")


def _decode_entity(src: str, i: int) -> tuple[str | None, int]:
    """Decode an HTML entity at ``src[i] == '&'``: (character or None, index after it)."""
    match = re.match(r"&(#[xX][0-9a-fA-F]*|#[0-9]*|[A-Za-z]*)(;?)", src[i:])
    assert match is not None
    body, semi = match.group(1), match.group(2)
    end = i + match.end()
    char: str | None = None
    if body.startswith("#"):
        digits = body[2:] if body[1:2] in ("x", "X") else body[1:]
        base = 16 if body[1:2] in ("x", "X") else 10
        code = int(digits, base) if digits and len(match.group(0)) < 11 else 0
        if 0 < code < 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            char = chr(code)
    else:
        char = _NAMED.get(body)
    if char is None and semi and body:
        raise _fail(f'Unsupported HTML entity "&{body};" at byte offset {_bytes(src, i)}')
    return char, end


def _bytes(src: str, i: int) -> int:
    return len(src[:i].encode())


def _name_end(src: str, i: int) -> int:
    """Where a tag's name that starts at ``i`` ends."""
    found = _NAME.match(src, i)
    assert found is not None  # it matches the empty name too
    return found.end()


def _at(src: str, i: int) -> str:
    """Where an error is, as tdlib says it."""
    return f"at byte offset {_bytes(src, i)}"


_SPECIAL = re.compile(r"[<&]")
_NAME = re.compile(r"[^ \t\r\n\v>]*")  # a tag's name, up to a space or its end


# What most messages hold: tags in lower case with no attribute but a link's double-quoted
# href (no entity in it), and the four named entities with their ";". `parse_plain_html` reads
# those in one pattern; anything else (an error too) goes to `parse_full_html`.
_PLAIN_TOKEN = re.compile(r'<(/?)([a-z][a-z-]*)(?: href="([^"&]*)")?>|&(lt|gt|amp|quot);')
_PLAIN_TAGS = frozenset(_TAGS - {"span", "tg-emoji"})
_USER_LINK = re.compile(r"tg://user\?id=(\d+)")


def parse_html(src: str) -> tuple[str, list[Span]]:
    """Parse Telegram HTML into plain text and spans (raises a 400 ApiError)."""
    plain = parse_plain_html(src)
    return plain if plain is not None else parse_full_html(src)


def parse_plain_html(src: str) -> tuple[str, list[Span]] | None:
    """`parse_full_html`'s result for a text of plain tags and entities only (None: another)."""
    out: list[str] = []
    size = 0
    spans: list[Span] = []
    stack: list[tuple[str, dict[str, Any], int]] = []
    i = 0
    for special in _SPECIAL.finditer(src):
        stop = special.start()
        if stop < i:
            continue  # inside the token just read (a link's href)
        if stop > i:
            out.append(src[i:stop])
            size += stop - i
        token = _PLAIN_TOKEN.match(src, stop)
        if token is None:
            return None
        slash, tag, href, entity = token.groups()
        i = token.end()
        if entity is not None:
            out.append(_NAMED[entity])
            size += 1
        elif (href is not None) != (tag == "a" and not slash) or tag not in _PLAIN_TAGS:
            return None
        elif not slash:
            stack.append((tag, {} if href is None else {"url": href}, size))
        elif not stack or stack[-1][0] != tag:
            return None
        else:
            _, attrs, start = stack.pop()
            if size > start:
                _close(tag, attrs, start, size, out, spans)
    if stack:
        return None
    out.append(src[i:])
    return "".join(out), spans


def parse_full_html(src: str) -> tuple[str, list[Span]]:
    """Any text: tdlib's rules, and its words for what it refuses."""
    n = len(src)

    def ch(k: int) -> str:
        return src[k] if k < n else ""

    def space(k: int) -> bool:
        return k >= n or src[k] in " \t\r\n\v"

    out: list[str] = []  # the plain text in pieces; `size` code points so far
    size = 0
    spans: list[Span] = []
    stack: list[tuple[str, dict[str, Any], int]] = []
    i = 0
    while i < n:
        special = _SPECIAL.search(src, i)
        stop = n if special is None else special.start()
        if stop > i:  # a run of plain text, copied at once
            out.append(src[i:stop])
            size += stop - i
            i = stop
            continue
        c = src[i]
        if c == "&":
            char, end = _decode_entity(src, i)
            out.append("&" if char is None else char)
            size += 1
            i = i + 1 if char is None else end
            continue
        begin = i  # its byte offset is worked out only for an error
        i += 1
        if ch(i) != "/":
            i = _name_end(src, i)
            if i >= n:
                raise _fail(f"Unclosed start tag {_at(src, begin)}")
            tag = src[begin + 1 : i].lower()
            if tag not in _TAGS:
                raise _fail(f'Unsupported start tag "{tag}" {_at(src, begin)}')
            attrs: dict[str, Any] = {}
            i = _parse_attributes(src, i, tag, begin, attrs)
            if tag == "span" and attrs.get("spoiler") is not True:
                raise _fail(f'Tag "span" must have class "tg-spoiler" {_at(src, begin)}')
            stack.append((tag, attrs, size))
            i += 1
            continue
        if not stack:
            raise _fail(f"Unexpected end tag {_at(src, begin)}")
        i = _name_end(src, i + 1)
        end_tag = src[begin + 2 : i].lower()
        while i < n and space(i):
            i += 1
        if ch(i) != ">":
            raise _fail(f"Unclosed end tag {_at(src, begin)}")
        tag, attrs, start = stack.pop()
        if end_tag and end_tag != tag:
            raise _fail(
                f'Unmatched end tag {_at(src, begin)}, expected "</{tag}>", found "</{end_tag}>"'
            )
        if size > start:
            _close(tag, attrs, start, size, out, spans)
        i += 1
    if stack:
        raise _fail(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    return "".join(out), spans


def _parse_attributes(src: str, i: int, tag: str, begin: int, attrs: dict[str, Any]) -> int:
    """Parse the attributes of a start tag (at ``begin``) from ``i``; returns the index of
    its ``>``."""
    n = len(src)
    while i < n and src[i] != ">":
        while i < n and src[i] in " \t\r\n\v":
            i += 1
        if i >= n:
            break
        if src[i] == ">":
            return i
        name_start = i
        while i < n and src[i] not in " \t\r\n\v=>":
            i += 1
        name = src[name_start:i]
        if not name:
            raise _fail(f'Empty attribute name in the tag "{tag}" {_at(src, begin)}')
        while i < n and src[i] in " \t\r\n\v":
            i += 1
        if i >= n or src[i] != "=":
            if tag == "blockquote" and name.lower() == "expandable":
                attrs["expandable"] = True
                continue
            raise _fail(
                "Expected equal sign in declaration of an attribute of the tag "
                f'"{tag}" {_at(src, begin)}'
            )
        i += 1
        while i < n and src[i] in " \t\r\n\v":
            i += 1
        if i >= n:
            raise _fail(f'Unclosed start tag "{tag}" {_at(src, begin)}')
        if src[i] in "'\"":
            quote, i = src[i], i + 1
            value: list[str] = []
            while i < n and src[i] != quote:
                if src[i] == "&":
                    char, end = _decode_entity(src, i)
                    if char is not None:
                        value.append(char)
                        i = end
                        continue
                value.append(src[i])
                i += 1
            i += 1
            text = "".join(value)
        else:
            token_start = i
            while i < n and (src[i].isalnum() or src[i] in ".-"):
                i += 1
            text = src[token_start:i].lower()
            if i < n and src[i] not in " \t\r\n\v>":
                raise _fail(
                    f"Unexpected end of name token at byte offset {_bytes(src, token_start)}"
                )
        if tag == "a" and name == "href":
            attrs["url"] = text
        elif tag == "code" and name == "class" and text.startswith("language-"):
            attrs["language"] = text[len("language-") :]
        elif tag == "span" and name == "class" and text.startswith("tg-"):
            attrs["spoiler"] = text == "tg-spoiler"
        elif tag == "tg-emoji" and name == "emoji-id":
            attrs["emoji_id"] = text
    if i >= n:
        raise _fail(f"Unclosed start tag {_at(src, begin)}")
    return i


def _close(
    tag: str, attrs: dict[str, Any], start: int, end: int, out: list[str], spans: list[Span]
) -> None:
    """Turn a closed tag into a span."""
    if tag in _SIMPLE:
        spans.append(Span(_SIMPLE[tag], start, end))
    elif tag == "tg-emoji":
        emoji_id = attrs.get("emoji_id", "")
        if not emoji_id.isdigit() or int(emoji_id) == 0:
            raise bad_request("can't parse entities: Invalid custom emoji identifier specified")
        spans.append(Span("custom_emoji", start, end, {"custom_emoji_id": emoji_id}))
    elif tag == "a":
        url = attrs.get("url") or "".join(out)[start:end]
        user = _USER_LINK.fullmatch(url)
        if user:
            spans.append(Span("text_mention", start, end, {"user_id": int(user.group(1))}))
        elif checked := _checked_link(url):
            spans.append(Span("text_link", start, end, {"url": checked}))
    elif tag == "blockquote":
        kind = "expandable_blockquote" if attrs.get("expandable") else "blockquote"
        spans.append(Span(kind, start, end))
    elif tag == "pre":
        last = spans[-1] if spans else None
        if last and last.type == "code" and (last.start, last.end) == (start, end):
            spans[-1] = Span("pre", start, end, dict(last.extra))
        else:
            spans.append(Span("pre", start, end))
    else:  # code
        extra = {"language": attrs["language"]} if attrs.get("language") else {}
        spans.append(Span("code", start, end, extra))


def _checked_link(url: str) -> str | None:
    url = url.strip()
    if not url or any(c.isspace() for c in url):
        return None
    if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", url):
        return url if url.split(":", 1)[0].lower() in ("http", "https", "tg", "ton") else None
    return "http://" + url
