"""A 2023-edition turn: every turn starts with the two dice (a magnifying glass counts as
one); then walking up to the roll, or staying in the room the turn began in, or its
passage; then the clue card a glass offers, if the player takes it, before suggesting."""

from __future__ import annotations

import pytest

from engine.table.dice import roll_dice
from engine.table.errors import (
    AlreadyMoved,
    CannotStay,
    MustMove,
    MustRollFirst,
    NoClueCard,
    OutOfReach,
)
from engine.table.queries import turn_options
from engine.table.state import Step
from engine.y2023 import events as yev
from engine.y2023.cards import CLUES, GLASS, ClueKind
from engine.y2023.state import y2023_of
from tests.support.classic import Classic, classic
from tests.support.y2023 import Y2023Game, y2023


def _game(players: int = 3) -> Y2023Game:
    game = Y2023Game(players)
    game.first_to(1)  # Scarlett (user 1) plays
    return game


def _clue_on_top(game: Y2023Game, clue: str) -> None:
    deck = game.y2023.clues
    game.set_edition(clues=(clue, *(c for c in deck if c != clue)))


def test_two_dice_whatever_the_dice_setting() -> None:
    game = Y2023Game(3, settings=y2023(dice=1))
    game.first_to(1)
    game.next_roll(glass=False)
    game.roll()
    assert len(game.table.dice) == 2 and game.table.step is Step.MOVE


def test_a_magnifying_glass_counts_as_one() -> None:
    game = _game()
    dice = game.next_roll(glass=True)
    game.roll()
    total = sum(1 if d == GLASS else d for d in dice)
    assert sum(game.table.dice) == total
    far = max(turn_options(game.game, 1).squares, key=lambda s: abs(s[0] - 7) + abs(s[1] - 24))
    assert abs(far[0] - 7) + abs(far[1] - 24) <= total


def test_no_diagonal_no_square_twice_never_through_or_onto_a_token_doors_included() -> None:
    game = _game()
    game.put("scarlett", (16, 17))
    game.put("mustard", (16, 16))  # on the library's door square
    game.rolled(6)
    with pytest.raises(OutOfReach):
        game.move("library")  # the only way in is the occupied door
    with pytest.raises(OutOfReach):
        game.move((16, 16))
    with pytest.raises(OutOfReach):
        game.move((17, 16))  # diagonal, and a room square
    game.put("mustard", (0, 17))
    game.move("library")  # no exact count needed
    assert game.table.place_of("scarlett") == "library"


def test_move_up_to_the_roll_in_the_corridor() -> None:
    """Up to the roll ("Vi ne devas uzi vian plenan"): any square one to six steps away on
    a six, where the classic game wants exactly six (tests/engine/table/test_table_turns.py)."""
    game = _game()
    game.put("scarlett", (22, 13))  # in front of the Billiard Room's side door
    game.rolled(6)
    squares = set(turn_options(game.game, 1).squares)
    assert {(21, 13), (18, 13), (16, 13), (17, 12)} <= squares
    assert (22, 13) not in squares  # staying on one's square is no move
    assert (15, 13) not in squares and (22, 6) not in squares  # seven steps away
    game.move((21, 13))  # one square of six
    assert game.table.place_of("scarlett") == (21, 13) and game.table.step is Step.MOVED


def test_every_turn_starts_with_the_dice_even_in_a_room() -> None:
    game = _game()
    game.put("scarlett", "kitchen")
    options = turn_options(game.game, 1)
    assert options.can_roll and not options.can_stay and options.passage is None
    with pytest.raises(MustRollFirst):
        game.stay()
    with pytest.raises(MustRollFirst):
        game.passage()


def test_starting_in_a_room_one_may_roll_then_stay_and_suggest_there() -> None:
    game = _game()
    game.put("scarlett", "hall")
    game.next_roll(glass=False)
    game.roll()
    options = turn_options(game.game, 1)
    assert options.can_stay and options.step is Step.MOVE
    game.stay()
    assert turn_options(game.game, 1).suggest_in == "hall"


def test_starting_in_the_corridor_one_may_not_stay() -> None:
    game = _game()
    game.next_roll(glass=False)
    game.roll()
    assert not turn_options(game.game, 1).can_stay
    with pytest.raises(CannotStay):
        game.stay()


def test_starting_in_a_room_one_may_roll_then_take_its_secret_passage() -> None:
    game = _game()
    game.put("scarlett", "kitchen")
    game.next_roll(glass=False)
    game.roll()
    assert turn_options(game.game, 1).passage == "study"
    game.passage()
    assert game.table.place_of("scarlett") == "study"
    assert turn_options(game.game, 1).suggest_in == "study"


def test_once_moved_one_may_no_longer_stay_nor_take_the_passage() -> None:
    game = _game()
    game.put("scarlett", "kitchen")
    game.next_roll(glass=False)
    game.roll()
    game.move((4, 8) if (4, 8) in turn_options(game.game, 1).squares else "study")
    with pytest.raises(AlreadyMoved):
        game.stay()
    with pytest.raises(AlreadyMoved):
        game.passage()


def test_a_magnifying_glass_offers_a_clue_card_the_player_chooses_to_draw() -> None:
    game = _game()
    top = game.y2023.clues[0]
    game.next_roll(glass=True)
    rolled = game.roll()
    assert not any(isinstance(e, yev.ClueCardDrawn) for e in rolled)  # not drawn for them
    assert not turn_options(game.game, 1).can_draw_clue  # moving is the first action
    with pytest.raises(NoClueCard):
        game.draw()
    game.walk()
    assert turn_options(game.game, 1).can_draw_clue
    drawn = [e for e in game.draw() if isinstance(e, yev.ClueCardDrawn)]
    assert [d.clue for d in drawn] == [top] and drawn[0].seat == 0
    assert game.y2023.clues[-1] == top and len(game.y2023.clues) == len(CLUES)
    assert not turn_options(game.game, 1).can_draw_clue
    with pytest.raises(NoClueCard):
        game.draw()  # once a turn


def test_staying_counts_as_the_move_and_suggesting_declines_the_clue_card() -> None:
    game = _game()
    game.put("scarlett", "hall")
    deck = game.y2023.clues
    game.next_roll(glass=True)
    game.roll()
    game.stay()
    assert turn_options(game.game, 1).can_draw_clue
    game.suggest("mustard", "dagger")  # declined: the suggestion comes without it
    assert not turn_options(game.game, 1).can_draw_clue
    with pytest.raises(NoClueCard):
        game.draw()
    assert game.y2023.clues == deck


def test_two_magnifying_glasses_still_draw_one_card() -> None:
    game = _game()
    turn = game.table.turn
    while roll_dice(game.game.seed, turn, 2) != (GLASS, GLASS):
        turn += 1
    game._table(turn=turn)
    game.roll()
    game.walk()
    events = game.draw()
    assert sum(isinstance(e, yev.ClueCardDrawn) for e in events) == 1
    with pytest.raises(NoClueCard):
        game.draw()


def test_no_glass_no_clue_card() -> None:
    game = _game()
    deck = game.y2023.clues
    game.next_roll(glass=False)
    events = game.roll()
    assert not any(isinstance(e, yev.ClueCardDrawn) for e in events)
    assert game.y2023.clues == deck
    assert not turn_options(game.game, 1).can_draw_clue
    with pytest.raises(NoClueCard):
        game.draw()


def test_a_clue_card_makes_the_holder_reveal_the_card_to_everyone() -> None:
    game = _game()
    holder = game.game.players[2]
    card = next(c for c in holder.hand if f"reveal_{c}" in CLUES)
    _clue_on_top(game, f"reveal_{card}")
    game.next_roll(glass=True)
    game.roll()
    game.walk()
    events = game.draw()
    revealed = next(e for e in events if isinstance(e, yev.ClueRevealed))
    assert (revealed.card, revealed.seat) == (card, 2)
    assert card in game.y2023.revealed and card in holder.hand  # back to the hand


def test_a_clue_card_for_a_card_nobody_holds_reveals_nothing() -> None:
    game = _game()
    held = {c for p in game.game.players for c in p.hand}
    free = next(c.card for c in CLUES.values() if c.card is not None and c.card not in held)
    _clue_on_top(game, f"reveal_{free}")
    game.next_roll(glass=True)
    game.roll()
    game.walk()
    revealed = next(e for e in game.draw() if isinstance(e, yev.ClueRevealed))
    assert revealed.seat is None and game.y2023.revealed == ()


def test_the_left_neighbour_shows_the_reader_a_random_card_privately() -> None:
    game = _game()
    left_shows = next(c.id for c in CLUES.values() if c.kind is ClueKind.LEFT_SHOWS)
    _clue_on_top(game, left_shows)
    game.next_roll(glass=True)
    game.roll()
    game.walk()
    shown = next(e for e in game.draw() if isinstance(e, yev.ClueCardShown))
    assert (shown.seat, shown.to) == (1, 0) and shown.card in game.game.players[1].hand
    assert game.y2023.seen == ((0, shown.card),)


def test_a_wrong_accuser_still_reveals_for_clue_cards() -> None:
    game = _game()
    game.put("scarlett", "hall")
    game.roll_and_stay()
    game.accuse(game.wrong())  # Scarlett is out; Mustard (user 2) plays next
    out = game.game.players[0]
    assert out.eliminated
    card = next(c for c in out.hand if f"reveal_{c}" in CLUES)
    _clue_on_top(game, f"reveal_{card}")
    game.next_roll(glass=True)
    game.roll()
    game.walk()
    revealed = next(e for e in game.draw() if isinstance(e, yev.ClueRevealed))
    assert revealed.seat == 0


def test_classic_games_never_draw_clue_cards() -> None:
    ones = 0
    for seed in range(30):
        game = Classic(
            3, roles=("scarlett", "mustard", "white"), seed=seed, settings=classic(dice=2)
        )
        events = game.roll()
        ones += GLASS in game.table.dice
        assert y2023_of(game.table) is None
        assert not any(isinstance(e, yev.ClueCardDrawn | yev.ClueRevealed) for e in events)
    assert ones > 0


def test_a_room_with_its_doors_blocked_leaves_staying_so_the_turn_cannot_be_given_up() -> None:
    """The dining room's two door squares taken: no walk, but staying ("resti en la
    ĉambro") is a move, so ending the turn without one is refused."""
    game = _game()
    game.put("scarlett", "dining_room")
    game.put("mustard", (6, 16))
    game.put("chef_white", (8, 12))
    game.next_roll(glass=False)
    game.roll()
    options = turn_options(game.game, 1)
    assert not options.rooms and not options.squares and options.can_stay
    assert not options.can_end_turn
    before = game.state
    with pytest.raises(MustMove):
        game.end()
    assert game.state is before
    game.stay()
    assert turn_options(game.game, 1).can_end_turn
