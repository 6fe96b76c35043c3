"""Liars Edition (2020): one test per rule of issue 13's list."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import timedelta

import pytest

from engine import REGISTRY
from engine import commands as cmd
from engine import events as ev
from engine.codec import (
    command_to_dict,
    event_to_dict,
    from_dict,
    to_dict,
)
from engine.deadlines import deadlines
from engine.errors import CardNotHeld, InvalidSetting, RuleError, WrongFormat
from engine.liars import commands as lcmd
from engine.liars import events as lev
from engine.liars.cards import LIARS_PACK, PASSAGES, RING, rooms_within
from engine.liars.errors import (
    AccuseAtStart,
    InvestigationFirst,
    InvestigationPending,
    NoInvestigationCard,
    NotThatAction,
    NotYourCall,
    NotYourChoice,
)
from engine.liars.queries import callers, liars_options, private_view
from engine.liars.state import Stage
from engine.settings import Settings
from engine.state import Game, Phase
from engine.table.errors import AlreadyMoved, MustRollFirst, NoSecretPassage, OutOfReach
from engine.table.state import Step
from tests.support.classic import Classic
from tests.support.liars import Liars, liars
from tests.support.liars_invariants import check_liars_invariants


def _refused(game: Classic, error: type[RuleError], command: cmd.Command) -> None:
    before = game.state
    with pytest.raises(error):
        game.run(command)
    assert game.state is before


def _of(events: list[ev.Event], kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in events if isinstance(e, kind)]


def _at_play(game: Liars, card: str) -> None:
    """Scarlett (user 1) has stayed in her room and holds `card`."""
    game.hold(0, card)
    game.stay()


# --- setup --------------------------------------------------------------------------------
def test_setup_every_token_on_the_board_an_envelope_of_three_the_rest_dealt_unevenly() -> None:
    game = Liars(4)
    assert sorted(s for s, _ in game.table.tokens) == sorted(LIARS_PACK.suspects)
    assert all(place in RING for _, place in game.table.tokens)
    assert len(game.envelope) == 3
    sizes = sorted(len(p.hand) for p in game.game.players)
    assert sizes == [4, 4, 5, 5] and sum(sizes) + 3 == 21
    check_liars_invariants(game.game)


def test_setup_each_player_holds_one_investigation_card() -> None:
    game = Liars(5)
    assert all(card in ("move", "pass", "peek", "lie") for card in game.part.held)
    assert len(game.part.held) == 5 and len(game.part.draw) == 18 - 5


def test_the_editions_evidence_cards_have_the_statue_among_the_weapons() -> None:
    game = Liars(3)
    assert "statue" in game.game.deck and "wrench" not in game.game.deck
    assert game.game.pack.category_of("statue") is not None


def test_the_board_is_a_ring_of_rooms_with_secret_passages_across() -> None:
    assert len(RING) == 9 and set(RING) == set(LIARS_PACK.places)
    assert PASSAGES["study"] == "kitchen" and PASSAGES["conservatory"] == "lounge"
    assert set(rooms_within("study", 2)) == {"lounge", "hall", "library", "billiard_room"}


def test_the_deck_of_investigation_cards_counts_are_settings() -> None:
    game = Liars(
        3, settings=liars(truth_move_cards=1, truth_pass_cards=1, truth_peek_cards=1, lie_cards=3)
    )
    deck = Counter([*game.part.held, *game.part.draw])
    assert deck == Counter({"move": 1, "pass": 1, "peek": 1, "lie": 3})
    with pytest.raises(InvalidSetting):
        liars(lie_cards=0, truth_move_cards=1, truth_pass_cards=1, truth_peek_cards=1)


# --- the turn -----------------------------------------------------------------------------
def test_an_accusation_is_made_at_the_start_of_a_turn_before_rolling() -> None:
    game = Liars(3)
    game.roll()
    _refused(game, AccuseAtStart, cmd.Accuse(actor=1, suspect="plum", weapon="rope", place="hall"))
    other = Liars(3)
    events = other.accuse(other.envelope)
    assert _of(events, ev.GameEnded)[0].winner == 0  # type: ignore[attr-defined]


def test_move_up_to_the_roll_rooms_around_the_ring_either_way() -> None:
    game = Liars(3)
    game.rolled(2)
    options = liars_options(game.game, 1)
    assert set(options.rooms) == {"hall", "study", "dining_room", "kitchen"}  # from the lounge
    game.move("kitchen")
    assert game.table.place_of("scarlett") == "kitchen" and game.table.step is Step.MOVED


def test_move_beyond_the_roll_or_to_a_square_is_refused() -> None:
    game = Liars(3)
    game.rolled(1)
    _refused(game, OutOfReach, cmd.Move(actor=1, to="kitchen"))
    _refused(game, OutOfReach, cmd.Move(actor=1, to=(3, 3)))
    _refused(game, OutOfReach, cmd.Move(actor=1, to="lounge"))


def test_liars_turn_starts_with_the_die_only_roll_or_accuse_before_it() -> None:
    game = Liars(3)
    options = liars_options(game.game, 1)
    assert options.can_roll and options.can_accuse
    assert options.passage is None and not options.can_stay and options.rooms == ()
    _refused(game, MustRollFirst, cmd.StayToSuggest(actor=1))
    _refused(game, MustRollFirst, cmd.TakePassage(actor=1))  # the Lounge has one
    _refused(game, MustRollFirst, cmd.Move(actor=1, to="hall"))


def test_liars_roll_then_stay() -> None:
    """The rulebook's Professor Plum: rolled a two in the Study, may stay there instead."""
    game = Liars(3)
    game.put("scarlett", "study")
    events = game.roll()
    assert _of(events, ev.DiceRolled)
    options = liars_options(game.game, 1)
    assert options.can_stay and not options.can_roll and not options.can_accuse
    game.stay()
    assert game.table.place_of("scarlett") == "study" and game.table.step is Step.MOVED
    assert liars_options(game.game, 1).suggest_in == "study"
    _refused(game, AlreadyMoved, cmd.StayToSuggest(actor=1))


def test_liars_roll_then_passage() -> None:
    """The rulebook's Professor Plum: rolled a two in the Study, may move two rooms either
    way, stay, or take the passage to the Kitchen."""
    game = Liars(3)
    game.put("scarlett", "study")
    game.rolled(2)
    options = liars_options(game.game, 1)
    assert set(options.rooms) == {"lounge", "hall", "library", "billiard_room"}
    assert options.passage == "kitchen" and options.can_stay
    game.passage()
    assert game.table.place_of("scarlett") == "kitchen" and game.table.step is Step.MOVED
    _refused(game, AlreadyMoved, cmd.TakePassage(actor=1))
    hall = Liars(3)
    hall.put("scarlett", "hall")
    hall.roll()
    assert liars_options(hall.game, 1).passage is None
    _refused(hall, NoSecretPassage, cmd.TakePassage(actor=1))


def test_liars_cannot_end_turn_without_investigation() -> None:
    game = Liars(3)
    game.stay()
    assert game.hand(1) and liars_options(game.game, 1).reads
    assert not liars_options(game.game, 1).can_end_turn
    _refused(game, InvestigationFirst, cmd.EndTurn(actor=1))
    game.suggest("plum", "rope")
    while game.table.step is Step.REFUTING:
        game.fire_due()
    _refused(game, InvestigationFirst, cmd.EndTurn(actor=1))
    card = game.part.held[0]
    game.read("move" if card == "lie" else card)
    while game.part.play is not None and game.part.play.due is not None:
        game.fire_due()  # the window, then any passes
    assert liars_options(game.game, 1).can_end_turn
    game.end()
    assert game.table.current == 1


def test_a_suggestion_names_the_current_room_and_brings_suspect_and_weapon_in() -> None:
    game = Liars(3)
    game.stay()
    own = game.hand(1)
    suspect = next((c for c in own if c in LIARS_PACK.suspects), "plum")
    events = game.suggest(suspect, "statue")  # one may name cards one holds
    made = _of(events, ev.TableSuggestionMade)[0]
    assert made.room == "lounge"  # type: ignore[attr-defined]
    assert (
        game.table.place_of(suspect) == "lounge" and game.table.room_of_weapon("statue") == "lounge"
    )
    asked = (
        _of(events, ev.RefuterAsked)
        + _of(events, ev.CouldNotRefute)
        + _of(events, ev.NobodyRefuted)
    )
    assert asked, "refutation goes left"
    first = asked[0]
    if isinstance(first, (ev.RefuterAsked, ev.CouldNotRefute)):
        assert first.seat == 1  # the player to the left of seat 0


# --- the investigation card ---------------------------------------------------------------
def test_the_investigation_card_is_played_after_moving_and_suggesting_once_a_turn() -> None:
    game = Liars(3)
    game.hold(0, "lie")
    _refused(game, NoInvestigationCard, lcmd.PlayInvestigation(actor=1, action="move"))
    game.stay()
    game.read("peek")
    _refused(game, NoInvestigationCard, lcmd.PlayInvestigation(actor=1, action="move"))
    _refused(game, ev_error(), cmd.Suggest(actor=1, suspect="plum", weapon="rope"))


def ev_error() -> type[RuleError]:
    from engine.table.errors import AlreadySuggested

    return AlreadySuggested


def test_a_truth_card_is_read_as_it_is() -> None:
    game = Liars(3)
    _at_play(game, "pass")
    assert liars_options(game.game, 1).reads == ("pass",)
    _refused(game, NotThatAction, lcmd.PlayInvestigation(actor=1, action="peek"))
    game.read("pass")
    assert game.part.play is not None and game.part.play.stage is Stage.WINDOW


def test_a_lie_card_carries_three_options_and_the_player_chooses_one() -> None:
    game = Liars(3)
    _at_play(game, "lie")
    assert liars_options(game.game, 1).reads == ("move", "pass", "peek")
    events = game.read("peek")
    read = _of(events, lev.InvestigationRead)[0]
    assert read.action == "peek" and read.card == "lie"  # type: ignore[attr-defined]


def test_nobody_presses_liar_and_the_action_happens_even_if_it_was_a_lie() -> None:
    game = Liars(3)
    _at_play(game, "lie")
    game.read("peek")
    events = game.fire_due()  # the window closes
    assert _of(events, lev.NoLiarCalled) and _of(events, lev.InvestigationDrawn)
    assert game.part.play is not None and game.part.play.stage is Stage.PEEK
    events = game.run(lcmd.PeekAt(actor=1, seat=2))
    peeked = _of(events, lev.Peeked)[0]
    assert len(peeked.cards) == 2 and set(peeked.cards) <= set(game.hand(3))  # type: ignore[attr-defined]


def test_someone_presses_and_it_was_a_lie_a_card_goes_face_up_and_no_action() -> None:
    game = Liars(3)
    _at_play(game, "lie")
    game.read("pass")
    _refused(game, NotYourCall, lcmd.CallLiar(actor=1))  # not the reader
    events = game.call(3)
    called = _of(events, lev.LiarCalled)[0]
    assert called.lie and called.seat == 2  # type: ignore[attr-defined]
    _refused(game, NotYourCall, lcmd.CallLiar(actor=2))  # one call only
    _refused(game, NotYourChoice, lcmd.ExposeCard(actor=2, card=game.hand(2)[0]))
    _refused(game, CardNotHeld, lcmd.ExposeCard(actor=1, card=game.hand(2)[0]))
    card = game.hand(1)[-1]
    events = game.run(lcmd.ExposeCard(actor=1, card=card))
    assert _of(events, lev.CardExposed) and not _of(events, lev.ActionBegun)
    assert card in game.part.face_up and card not in game.hand(1)
    assert game.part.play is not None and game.part.play.stage is Stage.DONE
    assert _of(events, lev.InvestigationDrawn)
    check_liars_invariants(game.game)


def test_someone_presses_and_it_was_the_truth_the_presser_shows_a_random_card_then_the_action() -> (
    None
):
    game = Liars(3)
    _at_play(game, "peek")
    game.read("peek")
    events = game.call(2)
    assert not _of(events, lev.LiarCalled)[0].lie  # type: ignore[attr-defined]
    shown = _of(events, lev.TruthShown)[0]
    assert shown.card in game.hand(2) and shown.reader == 0  # type: ignore[attr-defined]
    begun = _of(events, lev.ActionBegun)[0]
    assert begun.stage is Stage.PEEK  # type: ignore[attr-defined]


def test_the_reader_draws_a_new_card_and_the_discard_is_reshuffled_when_the_deck_runs_out() -> None:
    game = Liars(3)
    game._table(
        edition=type(game.part)(draw=(), held=("peek", "lie", "lie"), discard=("move", "pass"))
    )
    game.stay()
    game.read("peek")
    events = game.fire_due()
    drawn = _of(events, lev.InvestigationDrawn)[0]
    assert drawn.reshuffled is not None  # type: ignore[attr-defined]
    assert sorted(drawn.reshuffled) == ["move", "pass", "peek"]  # type: ignore[attr-defined]
    assert game.part.held[0] == drawn.card and len(game.part.draw) == 2  # type: ignore[attr-defined]


def _empty_hand(game: Liars, seat: int) -> None:
    """Seat's evidence cards go to the next seat (the deck stays whole)."""
    players = list(game.game.players)
    given = players[seat].hand
    other = (seat + 1) % len(players)
    players[seat] = replace(players[seat], hand=())
    players[other] = replace(
        players[other],
        hand=tuple(sorted((*players[other].hand, *given), key=game.game.deck.index)),
    )
    game.state = replace(game.game, players=tuple(players))


def test_liars_investigation_skipped_without_evidence() -> None:
    game = Liars(3)
    _at_play(game, "move")
    _empty_hand(game, 0)
    options = liars_options(game.game, 1)
    assert options.reads == () and options.skips_card and options.can_end_turn
    _refused(game, NoInvestigationCard, lcmd.PlayInvestigation(actor=1, action="move"))
    game.end()
    assert game.part.held[0] == "move"  # kept for when a card is passed to them
    assert not liars_options(game.game, 2).skips_card


# --- the three actions --------------------------------------------------------------------
def test_every_player_passes_one_card_of_their_choice_to_the_left() -> None:
    game = Liars(3)
    _at_play(game, "pass")
    game.read("pass")
    game.fire_due()
    assert game.part.play is not None and game.part.play.stage is Stage.PASSING
    before = {u: game.hand(u) for u in (1, 2, 3)}
    chosen = {u: before[u][0] for u in (1, 2, 3)}
    game.run(lcmd.PassCard(actor=2, card=chosen[2]))
    assert chosen[2] not in game.hand(2) and private_view(game.game, 1).passing == chosen[2]
    check_liars_invariants(game.game)
    _refused(game, NotYourChoice, lcmd.PassCard(actor=2, card=game.hand(2)[0]))
    _refused(game, InvestigationPending, cmd.EndTurn(actor=1))
    game.run(lcmd.PassCard(actor=1, card=chosen[1]))
    events = game.run(lcmd.PassCard(actor=3, card=chosen[3]))
    moves = _of(events, lev.CardsPassed)[0].moves  # type: ignore[attr-defined]
    assert sorted(moves) == sorted([(0, 1, chosen[1]), (1, 2, chosen[2]), (2, 0, chosen[3])])
    assert chosen[3] in game.hand(1) and chosen[1] in game.hand(2) and chosen[2] in game.hand(3)
    assert game.part.passes == ()
    check_liars_invariants(game.game)


def test_a_silent_passer_has_the_gm_pass_their_first_card() -> None:
    game = Liars(3)
    _at_play(game, "pass")
    game.read("pass")
    game.fire_due()
    first = game.hand(2)[0]
    events = game.fire_due()  # the passers' time ran out
    assert any(e.by_gm and e.card == first for e in _of(events, lev.PassChosen))  # type: ignore[attr-defined]
    assert _of(events, lev.CardsPassed)


def test_the_reader_may_look_at_two_random_cards_of_a_player_of_their_choice() -> None:
    game = Liars(3)
    _at_play(game, "peek")
    game.read("peek")
    game.fire_due()
    _refused(game, NotYourChoice, lcmd.PeekAt(actor=2, seat=2))
    events = game.run(lcmd.PeekAt(actor=1, seat=1))
    cards = _of(events, lev.Peeked)[0].cards  # type: ignore[attr-defined]
    assert len(cards) == 2 and set(cards) <= set(game.hand(2))
    again = Liars(3)
    _at_play(again, "peek")
    again.read("peek")
    again.fire_due()
    assert _of(again.run(lcmd.PeekAt(actor=1, seat=1)), lev.Peeked)[0].cards == cards  # type: ignore[attr-defined]


def test_the_reader_may_move_to_any_room_and_make_another_suggestion() -> None:
    game = Liars(3)
    _at_play(game, "move")
    game.suggest("plum", "rope")
    while game.table.step is Step.REFUTING:
        game.fire_due()
    game.read("move")
    game.fire_due()
    assert liars_options(game.game, 1).move_anywhere == RING
    game.run(lcmd.MoveAnywhere(actor=1, room="study"))
    assert game.table.place_of("scarlett") == "study"
    events = game.suggest("green", "statue")
    assert _of(events, ev.TableSuggestionMade)[0].room == "study"  # type: ignore[attr-defined]
    _refused(game, NotYourChoice, lcmd.MoveAnywhere(actor=1, room="hall"))


# --- accusations and the end --------------------------------------------------------------
def test_a_wrong_accuser_is_out_but_still_shows_cards_and_nobody_right_everyone_loses() -> None:
    game = Liars(3)
    game.accuse(game.wrong())
    loser = game.game.players[0]
    assert loser.eliminated and game.table.current == 1
    game.stay()
    game.suggest(
        *next(
            (
                (s, w)
                for s in LIARS_PACK.suspects
                for w in LIARS_PACK.weapons
                if s in loser.hand or w in loser.hand
            ),
            ("plum", "rope"),
        )
    )
    while game.table.step is Step.REFUTING:
        game.fire_due()
    card = game.part.held[1]
    game.read("move" if card == "lie" else card)
    while game.part.play is not None and game.part.play.due is not None:
        game.fire_due()
    game.end()
    game.accuse(game.wrong())
    game.accuse(game.wrong())
    assert game.game.phase is Phase.ENDED and game.game.winner is None


# --- timers, formats, storage -------------------------------------------------------------
def test_the_liar_window_is_a_setting_and_the_turn_clock_stands_still_meanwhile() -> None:
    game = Liars(3, settings=liars(liar_window=timedelta(seconds=45)))
    _at_play(game, "pass")
    due = game.table.due
    assert due is not None
    read_at = game.now
    game.read("pass")
    assert game.part.play is not None and game.part.play.due == game.now + timedelta(seconds=45)
    assert all(not isinstance(d.command, cmd.TurnDeadline) for d in deadlines(game.game))
    game.wait(timedelta(seconds=45))
    game.fire_due()
    game.fire_due()  # the passers' time (refute_time) ran out: the GM passed for them
    assert game.part.play is not None and game.part.play.stage is Stage.DONE
    assert game.table.due == due + (game.now - read_at)
    assert game.now - read_at == timedelta(seconds=45) + game.game.settings.refute_time


def test_a_caught_liar_who_stays_silent_has_the_gm_put_their_first_card_face_up() -> None:
    game = Liars(3)
    _at_play(game, "lie")
    game.read("move")
    game.call(2)
    first = game.hand(1)[0]
    events = game.fire_due()
    assert _of(events, lev.CardExposed)[0].card == first  # type: ignore[attr-defined]


def test_the_editions_commands_are_refused_in_the_classic_format() -> None:
    classic = Classic(3)
    _refused(classic, WrongFormat, lcmd.CallLiar(actor=2))


def test_the_editions_events_commands_and_state_survive_the_json_codec() -> None:
    game = Liars(3)
    _at_play(game, "lie")
    game.read("pass")
    game.call(2)
    game.run(lcmd.ExposeCard(actor=1, card=game.hand(1)[0]))
    for event in game.events:
        assert REGISTRY.codec.event_from_dict(event_to_dict(event)) == event
    command = lcmd.LiarsDeadline(turn=3, stage="window")
    assert REGISTRY.codec.command_from_dict(command_to_dict(command)) == command
    assert REGISTRY.codec.from_dict(Game, to_dict(game.game)) == game.game
    assert from_dict(Settings, to_dict(liars(lie_cards=7))) == liars(lie_cards=7)


def test_a_pause_moves_the_liar_window_by_the_paused_time() -> None:
    game = Liars(3)
    _at_play(game, "pass")
    game.read("pass")
    assert game.part.play is not None and game.part.play.due is not None
    due = game.part.play.due
    game.run(cmd.PauseGame(actor=1, actor_is_admin=True))
    game.wait(timedelta(hours=1))
    game.run(cmd.ResumeGame(actor=1, actor_is_admin=True))
    assert game.part.play is not None and game.part.play.due == due + timedelta(hours=1)


# --- the turn timer and the investigation card --------------------------------------------
def _turn_timer(game: Liars) -> list[ev.Event]:
    """The clock to the turn's deadline, and it runs."""
    due = next(d for d in deadlines(game.game) if isinstance(d.command, cmd.TurnDeadline))
    game.now = max(game.now, due.at)
    return game.run(due.command)


def _stage(game: Liars) -> Stage | None:
    play = game.part.play
    return play.stage if play is not None else None


def test_liars_timer_plays_investigation() -> None:
    """Out of time with the card unplayed: the GM reads a truth as it is, the others may
    call Liar!, everyone's part (the pass) happens, then the turn ends as timed out."""
    game = Liars(3)
    _at_play(game, "pass")
    events = _turn_timer(game)
    read = _of(events, lev.InvestigationRead)[0]
    assert read.by_gm and read.action == "pass" and read.card == "pass"  # type: ignore[attr-defined]
    assert not _of(events, ev.TurnEnded), "the turn waits for the others' answers"
    assert _stage(game) is Stage.WINDOW and callers(game.game) == (1, 2)
    game.fire_due()  # the window closes: everyone passes
    assert _stage(game) is Stage.PASSING
    assert game.table.current == 0
    game.run(lcmd.PassCard(actor=1, card=game.hand(1)[0]))  # the reader may still choose
    game.run(lcmd.PassCard(actor=2, card=game.hand(2)[0]))
    events = game.run(lcmd.PassCard(actor=3, card=game.hand(3)[0]))
    assert _of(events, lev.CardsPassed)
    ended = _of(events, ev.TurnEnded)[0]
    assert isinstance(ended, ev.TurnEnded) and ended.reason == "timed_out" and ended.seat == 0
    assert game.table.current == 1 and game.table.seats[0].missed == 1
    check_liars_invariants(game.game)


def test_liars_timer_reads_a_lie_as_its_first_action_and_it_may_be_caught() -> None:
    game = Liars(3)
    game.hold(0, "lie")  # not even rolled
    events = _turn_timer(game)
    read = _of(events, lev.InvestigationRead)[0]
    assert read.by_gm and read.action == "move"  # type: ignore[attr-defined]
    game.call(2)
    assert game.part.play is not None and game.part.play.stage is Stage.EXPOSE
    events = game.fire_due()  # the liar stays silent: the GM puts their first card face up
    assert _of(events, lev.CardExposed) and _of(events, lev.InvestigationDrawn)
    assert _of(events, ev.TurnEnded)[0].reason == "timed_out"  # type: ignore[attr-defined]
    assert game.table.current == 1
    check_liars_invariants(game.game)


def test_liars_timer_the_readers_own_part_goes_with_their_time() -> None:
    """Read unchallenged, "move to any room" is the reader's own: the turn ends at once."""
    game = Liars(3)
    _at_play(game, "move")
    _turn_timer(game)
    events = game.fire_due()  # the window closes, nobody called
    begun = _of(events, lev.ActionBegun)[0]
    assert begun.stage is Stage.FREE_MOVE  # type: ignore[attr-defined]
    assert _of(events, ev.TurnEnded)[0].reason == "timed_out"  # type: ignore[attr-defined]
    assert game.table.current == 1 and game.table.place_of("scarlett") == "lounge"


def test_liars_timer_without_evidence_or_after_the_card_ends_the_turn_at_once() -> None:
    game = Liars(3)
    _at_play(game, "peek")
    _empty_hand(game, 0)
    events = _turn_timer(game)
    assert not _of(events, lev.InvestigationRead) and _of(events, ev.TurnEnded)
    assert game.part.held[0] == "peek" and game.table.current == 1
    played = Liars(3)
    _at_play(played, "peek")
    played.read("peek")
    played.fire_due()  # nobody called: the reader chooses whom to peek at, and does not
    events = _turn_timer(played)
    assert not _of(events, lev.InvestigationRead) and _of(events, ev.TurnEnded)


def test_liars_timer_that_ran_out_while_the_bot_was_down_is_renewed_not_played() -> None:
    game = Liars(3)
    _at_play(game, "pass")
    due = next(d for d in deadlines(game.game) if isinstance(d.command, cmd.TurnDeadline))
    game.now = due.at
    events = game.run(cmd.TurnDeadline(turn=game.table.turn, excused=True))
    assert _of(events, ev.TurnTimerRenewed) and not _of(events, lev.InvestigationRead)
