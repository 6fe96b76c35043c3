"""The classic turn prompt offers exactly the engine's legal actions: boxed in at the
Kitchen's door with no walk of exactly the roll, it offers the Kitchen and no End turn
(giving up a turn is against the rules); boxed in with no room either, End turn. After the
move it says to accuse only where the edition allows one (the 2023 edition: from a room)."""

from __future__ import annotations

from typing import Any

from bot.announce.table_prompt import ClassicPrompt
from bot.editions.y2023.prompt import Y2023Prompt
from engine.board.classic import CLASSIC as BOARD
from engine.table.queries import turn_options
from locales import t
from tests.support.classic import Classic
from tests.support.y2023 import Y2023Game

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


def test_a_2023_player_in_the_corridor_after_moving_is_not_told_to_accuse() -> None:
    game = Y2023Game(3)
    game.next_roll(glass=False)
    game.roll()
    options = turn_options(game.game, game.current.user)
    game.move(options.squares[0])  # a square in the corridor: no accusing from there
    key, _, rows = Y2023Prompt().current(1, game.game, game.current.user)
    assert key == "table.prompt_end"
    assert "button.accuse" not in [spec.get("t") for row in rows for spec in row]
    assert "accuse" not in t("en", key, player="Ann")


def test_a_classic_player_after_moving_may_still_accuse() -> None:
    game = Classic(3, roles=("scarlett", "mustard", "white"))
    game.rolled(3)
    game.move(turn_options(game.game, game.current.user).squares[0])  # in the corridor
    key, _, rows = ClassicPrompt().current(1, game.game, game.current.user)
    assert key == "table.prompt_after"
    assert "button.accuse" in [spec.get("t") for row in rows for spec in row]
