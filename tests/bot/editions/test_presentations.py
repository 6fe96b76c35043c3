"""The bot's presentations are a value built from a tuple of editions: one built with a
toy fourth edition besides the shipped ones names it, draws its board and words its
messages, and the shipped ones stay as they were."""

from __future__ import annotations

from typing import Any

from bot.editions.base import Edition
from bot.editions.presentations import Presentations
from bot.editions.registry import EDITIONS, shipped
from bot.render.board_view import BoardView
from bot.render.reader import Reader


class ToyBoard(BoardView):
    """A board told in one line, never drawn."""

    def post(self, reader: Reader, board: dict[str, Any], text: str) -> tuple[str, bytes | None]:
        return f"{text}\n{self.words(reader, board)}", None

    def words(self, reader: Reader, board: dict[str, Any]) -> str:
        return f"knocks: {board['knocks']}"


TOY = Edition(
    key="toy_d4",
    words=("d4",),
    rules="rules.text",
    rules_words=("d4",),
    composers={"toy.knocked": lambda reader, args: f"knock {args['n']}"},
    boards={"toy": ToyBoard()},
)


def test_a_registry_with_a_toy_edition_knows_it_beside_the_shipped_ones() -> None:
    shown = Presentations((*EDITIONS, TOY))
    assert shown.editions == shipped(TOY).editions
    assert shown.by_word("D4") is TOY and shown.rules_by_word("d4") == "rules.text"
    assert shown.by_key["toy_d4"] is TOY
    reader = Reader("en")
    assert shown.compose(reader, "toy.knocked", {"n": 2}) == "knock 2"
    assert shown.board_post(reader, {"name": "toy", "knocks": 3}, "Turn 1") == (
        "Turn 1\nknocks: 3",
        None,
    )
    for edition in EDITIONS:
        assert shown.by_key[edition.key] is edition


def test_the_shipped_registry_does_not_know_the_toy() -> None:
    shown = shipped()
    assert shown.by_word("d4") is None and "toy_d4" not in shown.by_key
    assert "toy.knocked" not in shown.composers and "toy" not in shown.boards
