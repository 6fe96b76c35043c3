"""/log @player's query: exactly one player's public facts, never a card shown or an
accusation's cards."""

from __future__ import annotations

import dataclasses
from itertools import product

from engine import commands as cmd
from engine.cards import Category
from engine.player_log import LoggedAccusation, LoggedSuggestion, PlayerLog, Reply, player_log
from engine.state import Answer, Suggestion
from engine.table.setup import table_cards
from tests.support.classic import Classic
from tests.support.table import DAY, HOUR, SUSPECT, WEAPON, Table, expect_error, table_where

BOB, CAROL, DAVE = 1, 2, 3  # the seats of users 2, 3 and 4


def _logged(table: Table, made: Suggestion, *replies: Reply) -> LoggedSuggestion:
    s = table.suggestion(made.id)  # as it stands now
    return LoggedSuggestion(s.number, s.day, 0, s.suggester, s.cards, replies)


def test_a_players_log_has_their_suggestions_answers_and_accusation_and_nothing_else() -> None:
    table = table_where(lambda t: bool(t.held(3, SUSPECT) and t.held(2, WEAPON)), players=4)
    made = table.suggest(2, 3, table.held_by(3, SUSPECT))  # Bob asks Carol: she shows a card
    table.refute(3, made.id, made.suspect)
    asked = table.suggest(1, 2, table.held_by(2, WEAPON))  # Alice asks Bob: he shows one
    table.refute(2, asked.id, asked.weapon)
    nothing = table.suggest(4, 2, table.not_held_by(2))  # Bob holds none: answered at once
    table.suggest(1, 3)  # not Bob's business
    voided = table.suggest(3, 2, table.held_by(2, WEAPON))
    table.admin(cmd.VoidSuggestion, suggestion=voided.id)
    waiting = table.suggest(2, 4, table.held_by(4))  # Dave has not answered yet
    table.wait(HOUR)
    table.accuse(2, table.wrong())

    log = player_log(table.game, 2)
    assert log == PlayerLog(
        seat=BOB,
        made=(
            _logged(table, made, Reply(CAROL, Answer.REFUTED)),
            _logged(table, waiting, Reply(DAVE, Answer.PENDING)),
        ),
        answered=(
            _logged(table, asked, Reply(BOB, Answer.REFUTED)),
            _logged(table, nothing, Reply(BOB, Answer.NOT_REFUTED)),
            _logged(table, voided, Reply(BOB, Answer.VOIDED)),
        ),
        accusations=(LoggedAccusation(table.now, 0, None),),  # judged when the window closes
    )
    names = {
        f.name for kind in (PlayerLog, LoggedSuggestion, Reply) for f in dataclasses.fields(kind)
    }
    assert not names & {"card", "hand", "envelope", "suspect", "weapon", "place"}
    names = {f.name for f in dataclasses.fields(LoggedAccusation)}
    assert names == {"at", "turn", "correct"}  # never the accused cards

    accused_at = table.now
    table.wait(DAY + HOUR)  # the window closes (wrong), and the GM answers for silent Dave
    log = player_log(table.game, 2)
    assert log is not None
    assert log.accusations == (LoggedAccusation(accused_at, 0, False),)
    [(_, late)] = [(s, s.replies[0]) for s in log.made if s.number == waiting.number]
    assert late.seat == DAVE and late.by_gm and late.answer is not Answer.PENDING


def test_no_log_for_a_non_player_and_none_in_the_lobby() -> None:
    table = Table(3)
    assert player_log(table.game, 42) is None
    lobby = Table(3, start=False)
    expect_error("game_not_running", lambda: player_log(lobby.game, 2))


def _table_game() -> tuple[Classic, tuple[str, str]]:
    """A classic game where Scarlett (user 1) walks into the kitchen and may name a suspect
    and weapon that Mustard (seat 1) cannot refute and White (seat 2) can."""
    suspects, weapons = table_cards(Category.SUSPECT), table_cards(Category.WEAPON)
    for seed in range(1, 200):
        game = Classic(4, roles=("scarlett", "mustard", "white", "green"), seed=seed)
        hands = [set(p.hand) for p in game.game.players]
        for suspect, weapon in product(suspects, weapons):
            named = {suspect, weapon, "kitchen"}
            if not named & (hands[0] | hands[1]) and named & hands[2]:
                game.put("scarlett", (4, 7))  # the kitchen's door
                game.rolled(1)
                game.move("kitchen")
                return game, (suspect, weapon)
    raise AssertionError("no seed gives such a deal")


def test_at_the_table_the_log_has_who_passed_and_who_showed() -> None:
    game, (suspect, weapon) = _table_game()
    game.suggest(suspect, weapon)
    number = game.table.suggestions[-1].number
    turn = game.table.turn
    cards = (suspect, weapon, "kitchen")

    def logged(*replies: Reply) -> LoggedSuggestion:
        return LoggedSuggestion(number, 0, turn, 0, cards, replies)

    passed = Reply(1, Answer.NOT_REFUTED)
    log = player_log(game.game, 1)
    assert log is not None and log.made == (logged(passed, Reply(2, Answer.PENDING)),)
    white = game.game.players[2]
    game.show(white.user, next(c for c in white.hand if c in cards))
    shown = logged(passed, Reply(2, Answer.REFUTED))
    assert player_log(game.game, 1) == PlayerLog(0, (shown,), (), ())
    assert player_log(game.game, 2) == PlayerLog(1, (), (shown,), ())  # Mustard passed
    assert player_log(game.game, 3) == PlayerLog(2, (), (shown,), ())  # White showed
    assert player_log(game.game, 4) == PlayerLog(3, (), (), ())  # Green was never asked
