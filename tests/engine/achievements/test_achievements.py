"""Achievements (engine/achievements): each rule on a small built game, the series over many
games from the tally, and who is never judged (games not rated, computer detectives)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine import commands as cmd
from engine.achievements import ACHIEVEMENTS, Tally, judge, told_in_group
from engine.achievements.facts import facts_of
from engine.cards import CATEGORY_ORDER, CardId
from engine.computer import Level
from engine.events import DayOpened, Event
from engine.notebook.story import named_from
from engine.settings import GameFormat, Settings
from engine.state import Game
from simulation.randomplay import RandomGame
from simulation.rated_games import SeatedDetectives
from tests.support.classic import Classic
from tests.support.liars import Liars
from tests.support.table import DAY, HOUR, Table

Met = set[tuple[int, str]]


def _met(game: Game, events: Sequence[Event]) -> Met:
    return set(judge(facts_of(game, events), {}).met)


def _won_by(table: Table, user: int) -> Met:
    """`user` accuses right; the window closes and the game ends."""
    table.accuse(user, table.envelope)
    table.wait(DAY + HOUR)
    assert table.game.winner == table.player(user).seat
    return _met(table.game, table.events)


def _showing(table: Table, user: int, card: CardId) -> tuple[CardId, CardId, CardId]:
    """A suggestion to `user` naming `card` of theirs and nothing else they hold."""
    hand = set(table.hand(user))
    category = next(k for k in CATEGORY_ORDER if card in table.in_play(k))
    picked = [
        card if k is category else next(c for c in table.in_play(k) if c not in hand)
        for k in CATEGORY_ORDER
    ]
    return picked[0], picked[1], picked[2]


def test_every_key_is_unique_and_each_is_a_rule_of_a_game_or_of_a_series() -> None:
    keys = [a.key for a in ACHIEVEMENTS]
    assert len(keys) == len(set(keys)) == 20
    assert all((a.game is None) != (a.series is None) for a in ACHIEVEMENTS)
    assert not told_in_group("hat_trick") and told_in_group("day_one")


def test_solved_on_day_one_with_no_question_asked_a_first_win_on_a_hunch() -> None:
    met = _won_by(Table(3), 1)
    assert met == {(1, "first_win"), (1, "day_one"), (1, "few_questions"), (1, "hunch")}


def test_a_win_on_day_two_after_four_suggestions_is_neither_day_one_nor_few_questions() -> None:
    table = Table(3)
    for target in (2, 3, 2):
        table.suggest(1, target)
    table.end_day()
    table.suggest(1, 3)
    met = _won_by(table, 1)
    assert (1, "day_one") not in met and (1, "few_questions") not in met
    assert (1, "first_win") in met


def test_last_one_standing_after_both_others_accused_wrongly() -> None:
    table = Table(3)
    table.accuse(2, table.wrong())
    table.accuse(3, table.wrong())
    met = _won_by(table, 1)
    assert (1, "last_standing") in met and (1, "photo_finish") in met
    assert not {k for u, k in met if u != 1}


def test_a_photo_finish_only_when_another_accused_in_the_same_window() -> None:
    table = Table(4)
    table.accuse(2, table.wrong())
    table.wait(DAY + HOUR)  # that window closed: 2 is out
    met = _won_by(table, 1)
    assert (1, "photo_finish") not in met and (1, "last_standing") not in met


def test_a_full_house_is_won_at_a_table_of_six() -> None:
    assert (1, "full_house") in _won_by(Table(6), 1)
    assert (1, "full_house") not in _won_by(Table(5), 1)


def test_three_inspectors_beaten_and_the_notebook_named_the_envelope_the_day_it_forced_it() -> None:
    levels = (Level.SLEUTH, Level.INSPECTOR, Level.INSPECTOR, Level.INSPECTOR)
    played = SeatedDetectives(10, levels, settings=Settings(format=GameFormat.FORUM))
    game = played.play()
    assert game.winner == 0  # person 1's seat, played by a sleuth: it accuses once forced
    met = _met(game, played.events)
    assert {(1, "three_inspectors"), (1, "machine_beaten"), (1, "first_forced")} <= met
    assert (1, "hunch") not in met and {u for u, _ in met} == {1}  # detectives earn nothing
    facts = facts_of(game, played.events)
    assert dict(named_from(played.events))[0] == facts.accused_day  # the story agrees
    fewer = replace(game, players=(*game.players[:2], replace(game.players[2], user=-99)))
    assert (1, "three_inspectors") not in _met(fewer, played.events)


def test_a_hunch_is_a_win_the_notebook_did_not_force() -> None:
    played = RandomGame(20, 3)
    game = played.play()
    assert game.winner is not None
    winner = game.players[game.winner].user
    met = _met(game, played.events)
    assert (winner, "hunch") in met and (winner, "first_forced") not in met
    assert dict(named_from(played.events))[game.winner] is None


def test_answered_every_suggestion_in_time_for_a_whole_game_and_one_card_only() -> None:
    table = Table(3)
    card = table.hand(2)[0]
    for day in range(3):
        suggestion = table.suggest(1, 2, _showing(table, 2, card))
        table.refute(2, suggestion.id, card)
        other = table.hand(3)[day]  # 3 shows a different card each day
        late = table.suggest(1, 3, _showing(table, 3, other))
        if day != 1:  # on day 2, 3 lets it run out: the GM answers for them
            table.refute(3, late.id, other)
        table.end_day()
    met = _won_by(table, 1)
    assert (2, "punctual") in met and (2, "poker_face") in met
    assert (3, "punctual") not in met and (3, "poker_face") not in met


def test_a_standing_answer_that_never_gave_away_a_card() -> None:
    table = Table(3)
    card = table.hand(2)[0]
    table.run(cmd.SetStandingAnswer(actor=2, order=(card,)))
    shown = table.suggest(1, 2, _showing(table, 2, card))
    table.refute(2, shown.id, card)  # shown once by 2
    table.end_day()
    for _ in range(2):  # 2 is silent: the GM shows the standing answer, that same card
        table.suggest(1, 2, _showing(table, 2, card))
        table.end_day()
    assert sum(s for _, _, s in facts_of(table.game, table.events).seats[1].shown) == 2
    assert (2, "nothing_given") in _won_by(table, 1)


def test_a_standing_answer_that_shows_a_new_card_gives_it_away() -> None:
    table = Table(3)
    card = table.hand(2)[0]
    table.run(cmd.SetStandingAnswer(actor=2, order=(card,)))
    for _ in range(2):
        table.suggest(1, 2, _showing(table, 2, card))
        table.end_day()
    assert (2, "nothing_given") not in _won_by(table, 1)


def test_at_the_table_swift_and_three_secret_passages_but_never_day_one() -> None:
    game = Classic(3, roles=("scarlett", "mustard", "white"))
    game.put("scarlett", "kitchen")
    for _ in range(3):
        game.passage()
        game.end()
        while game.current.user != 1:
            game.fire_due()
    game.accuse(game.envelope)
    met = _met(game.game, game.events)
    assert {(1, "first_win"), (1, "swift"), (1, "passages")} <= met
    assert (1, "day_one") not in met and (1, "photo_finish") not in met
    assert not any(isinstance(e, DayOpened) for e in game.events)


def test_calling_a_liar_right_in_the_liars_edition() -> None:
    game = Liars(3)
    game.hold(0, "lie")
    game.stay()
    game.read("pass")
    game.call(3)  # Scarlett (user 1) lied: caught by user 3
    while game.current.user != 3:
        game.fire_due()
    game.accuse(game.envelope)
    met = _met(game.game, game.events)
    assert (3, "liar_caught") in met and (1, "liar_caught") not in met


def test_series_from_the_tally_ten_games_three_wins_in_a_row_ten_clean_wins() -> None:
    table = Table(3)
    table.accuse(2, table.wrong())
    before = {1: Tally(games=9, streak=2, clean=9), 2: Tally(games=49, streak=5, clean=9)}
    table.accuse(1, table.envelope)
    table.wait(DAY + HOUR)
    judged = judge(facts_of(table.game, table.events), before)
    met = set(judged.met)
    assert {(1, "regular"), (1, "hat_trick"), (1, "clean_ten")} <= met
    assert (2, "veteran") in met and (2, "hat_trick") not in met and (2, "clean_ten") not in met
    assert judged.tallies[1] == Tally(games=10, streak=3, clean=10)
    assert judged.tallies[2] == Tally(games=50, streak=0, clean=0)  # a wrong accusation
    assert judged.tallies[3] == Tally(games=1, streak=0, clean=0)


def _three_days_of_seat_2_showing_one_card() -> Table:
    """A game of three where seat 1 asks seat 2, who shows the same card, for three days."""
    table = Table(3)
    card = table.hand(2)[0]
    for _ in range(3):
        table.refute(2, table.suggest(1, 2, _showing(table, 2, card)).id, card)
        table.end_day()
    return table


def test_nothing_for_a_game_not_played_out() -> None:
    table = _three_days_of_seat_2_showing_one_card()
    assert judge(facts_of(table.game, table.events), {}).met == ()  # still running
    table.admin(cmd.EndGame)
    assert judge(facts_of(table.game, table.events), {}).met == ()  # an admin ended it


def test_a_seat_handed_over_has_no_whole_game_deeds() -> None:
    table = _three_days_of_seat_2_showing_one_card()
    table.admin(cmd.ReplacePlayer, player=2, newcomer=7)
    met = _won_by(table, 1)
    assert not {(7, "punctual"), (2, "punctual"), (7, "poker_face")} & met


def test_what_a_person_has_earned_is_not_judged_again() -> None:
    table = Table(3)
    table.accuse(1, table.envelope)
    table.wait(DAY + HOUR)
    earned = {1: frozenset({"first_win", "hunch"})}
    met = set(judge(facts_of(table.game, table.events), {}, earned).met)
    assert met == {(1, "day_one"), (1, "few_questions")}
