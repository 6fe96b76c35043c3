"""Compact callback data for inline buttons (at most 64 bytes), and its parsing."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
MAX_DIGITS = 18  # ids fit a signed 64-bit integer (the database's)


@dataclass(frozen=True)
class Callback:
    """`kind` names the action; `game` the game it belongs to; `args` the rest."""

    kind: str
    game: int
    args: tuple[str, ...] = ()

    def encode(self) -> str:
        data = ":".join((self.kind, str(self.game), *self.args))
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data over {MAX_BYTES} bytes: {data}")
        return data


class Malformed(ValueError):
    """Button data that none of our buttons carries (forged, or from an old version)."""


def parse(data: str | None) -> Callback | None:
    """A Callback from button data; None for anything malformed."""
    if not data:
        return None
    parts = data.split(":")
    if len(parts) < 2 or not _digits(parts[1]):
        return None
    return Callback(parts[0], int(parts[1]), tuple(parts[2:]))


def index(text: str, size: int) -> int:
    """A position in a list of `size` items, as a button carries it: 0 <= i < size.

    Every index read from button data goes through here, so a forged "-1" or "99" is
    refused (Malformed) and never taken as "the last one" or anything else.
    """
    if not _digits(text) or int(text) >= size:
        raise Malformed(text)
    return int(text)


def number(text: str) -> int:
    """A positive id or count from button data (a suggestion's id or number)."""
    if not _digits(text) or int(text) < 1:
        raise Malformed(text)
    return int(text)


def chat(text: str) -> int:
    """A chat's id from button data (a group's is negative)."""
    if re.fullmatch(rf"-?[0-9]{{1,{MAX_DIGITS}}}", text) is None:
        raise Malformed(text)
    return int(text)


def _digits(text: str) -> bool:
    """ASCII digits only ("²" and "٣" pass str.isdigit but are no ids), and not too many."""
    return re.fullmatch(rf"[0-9]{{1,{MAX_DIGITS}}}", text) is not None


# Kinds
JOIN = "j"
LEAVE = "l"
START = "st"
REFUTE = "a"
NO_REFUTATION = "n"
SUGGEST = "s"  # composer: s:game:target:suspect:weapon:place (indexes; "-" = not chosen yet)
SUGGEST_SEND = "ss"
ACCUSE = "c"  # composer: c:game:suspect:weapon:place
ACCUSE_SEND = "cs"
CANCEL = "x"
TURN = "t"  # the classic format's turn prompt: t:game:turn:action[:args]
SHOW = "v"  # a refuter shows a card at the table: v:game:suggestion:card index
BACK = "b"  # an away player is back at the table
CHARACTER = "rc"  # a character chosen on the lobby post: rc:game:suspect index
PERSON_LANGUAGE = "pl"  # a person's language: pl:0:code (or auto)
PERSON_ZONE = "pz"  # a person's time zone: pz:0:IANA name (or auto)
CHAT_LANGUAGE = "cl"  # a group's language, on the bot's introduction (admins): cl:0:code
# The settings menu in private: mn:game (0: the chat's defaults):chat:topic:version:action[:args]
SETTINGS_MENU = "mn"
NOTEBOOK = "nb"  # a player's notebook: nb:game (the picture) or nb:game:t (the text)
SETTINGS_OPEN = "mo"  # the group's pointer to the settings menu: mo:game:chat:topic
REPLACEMENT = "rp"  # an admin starts replacing a silent player: rp:game:seat
DETECTIVE = "dt"  # the lobby host seats a computer detective: dt:game:level ("-": the last out)
