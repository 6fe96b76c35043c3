"""The board in words, for chats with pictures off: each token's room or square, and where
the weapons are. Also the names the board picture is labelled with."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.render.reader import Reader
from engine.board import Board, Place, Square
from locales import t

SUSPECT_MARKS: Mapping[str, str] = MappingProxyType(
    {
        "scarlett": "🔴",
        "mustard": "🟡",
        "white": "⚪",
        "green": "🟢",
        "peacock": "🔵",
        "plum": "🟣",
        "chef_white": "⚪",  # the 2023 edition's characters
        "mayor_green": "🟢",
        "solicitor_peacock": "🔵",
    }
)
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def square_label(square: Square) -> str:
    """A square as printed on the board's edges: column letter, row number ("H18")."""
    return f"{COLUMNS[square[0]]}{square[1] + 1}"


def board_text(
    reader: Reader, board: Board, tokens: Mapping[str, Place], weapons: Mapping[str, str]
) -> str:
    """Lines naming each suspect token's room or square (board order), then the weapons
    with their rooms; HTML-escaped for the reader."""
    lines = [t(reader.language, "board.heading")]
    order = [*board.starts, *(s for s in tokens if s not in board.starts)]
    for suspect in order:
        if suspect not in tokens:
            continue
        place = tokens[suspect]
        mark = SUSPECT_MARKS.get(suspect, "•")
        if isinstance(place, str):
            lines.append(
                t(
                    reader.language,
                    "board.token_room",
                    mark=mark,
                    suspect=reader.card(suspect),
                    room=reader.card(place),
                )
            )
        else:
            lines.append(
                t(
                    reader.language,
                    "board.token_square",
                    mark=mark,
                    suspect=reader.card(suspect),
                    square=square_label(place),
                )
            )
    if weapons:
        placed = [
            t(reader.language, "board.weapon_room", weapon=reader.card(w), room=reader.card(r))
            for w, r in sorted(
                weapons.items(), key=lambda item: (_room_index(board, item[1]), item[0])
            )
        ]
        lines.append(t(reader.language, "board.weapons", weapons="; ".join(placed)))
    return "\n".join(lines)


def picture_names(
    reader: Reader, board: Board, tokens: Mapping[str, Place], weapons: Mapping[str, str]
) -> dict[str, str]:
    """Card id -> name (not escaped: the picture draws text) for what the picture shows."""
    ids = {*board.rooms, *board.starts, *tokens, *weapons}
    return {card: reader.card_name(card) for card in ids}


def _room_index(board: Board, room: str) -> int:
    return board.rooms.index(room) if room in board.rooms else len(board.rooms)
