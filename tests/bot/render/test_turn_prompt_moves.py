"""The classic turn prompt offers exactly the engine's legal actions: boxed in at the
Kitchen's door with no walk of exactly the roll, it offers the Kitchen and no End turn
(giving up a turn is against the rules); boxed in with no room either, End turn."""

from __future__ import annotations

from typing import Any

from bot.announce.table_prompt import ClassicPrompt
from engine.board.classic import CLASSIC as BOARD
from tests.support.classic import Classic

KITCHEN_DOOR = (4, 7)


def _boxed_in(at: tuple[int, int], roll: int) -> Classic:
    game = Classic(3, roles=("scarlett", "mustard", "white"))
    game.put("scarlett", at)
    for token, square in zip(("mustard", "white", "green"), BOARD.neighbours(at), strict=False):
        game.put(token, square)
    game.rolled(roll)
    return game


def _prompt(game: Classic) -> tuple[str, list[dict[str, Any]]]:
    key, _, rows = ClassicPrompt().current(1, game.game, 1)
    return key, [spec for row in rows for spec in row]


def test_a_room_within_the_roll_is_offered_and_ending_the_turn_is_not() -> None:
    key, buttons = _prompt(_boxed_in(KITCHEN_DOOR, 3))
    assert key == "table.prompt_move"
    assert [b.get("room") for b in buttons if b.get("t") == "button.enter"] == ["kitchen"]
    assert not [b for b in buttons if b.get("t") == "button.end_turn"]


def test_with_no_move_at_all_the_prompt_says_so_and_offers_ending_the_turn() -> None:
    game = _boxed_in((9, 1), 3)  # the mouth of White's one-wide passage, a neighbour taken
    key, buttons = _prompt(game)
    assert key == "table.prompt_stuck"
    assert [b.get("t") for b in buttons] == ["button.end_turn", "button.accuse"]
