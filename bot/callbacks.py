"""Compact callback data for inline buttons (at most 64 bytes), and its parsing."""

from __future__ import annotations

from dataclasses import dataclass

MAX_BYTES = 64


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


def parse(data: str | None) -> Callback | None:
    """A Callback from button data; None for anything malformed."""
    if not data:
        return None
    parts = data.split(":")
    if len(parts) < 2 or not parts[1].isdigit():
        return None
    return Callback(parts[0], int(parts[1]), tuple(parts[2:]))


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
