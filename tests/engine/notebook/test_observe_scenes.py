"""One short game of each format, written event by event, and each player's notebook facts
as that player would check them: what they were shown, what was said in the group, and
what they can no longer rely on once cards change hands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine import REGISTRY
from engine import events as ev
from engine.liars import events as lev
from engine.liars.cards import LIARS_PACK, Action
from engine.liars.state import Stage
from engine.notebook.facts import (
    ENVELOPE,
    FACE_UP,
    ROOMS,
    Clause,
    Fact,
    Holding,
    Literal,
    Source,
    SourceKind,
    holds,
    lacks,
    not_all,
    one_of,
)
from engine.notebook.observe import case_of, cases_over_time
from engine.settings import Settings
from engine.table.setup import TABLE_CARDS
from engine.y2023 import events as yev
from engine.y2023.cards import Y2023

ALICE, BOB, CAROL = 0, 1, 2
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
LATER = T0 + timedelta(hours=24)
K = SourceKind
Hands = tuple[tuple[str, ...], ...]


def fact(
    kind: SourceKind, when: int, about: int | None, cards: tuple[str, ...], *clauses: Clause
) -> Fact:
    return Fact(Source(kind, when, about, cards), clauses)


def hand(seat: int, when: int, *cards: str) -> Fact:
    return fact(K.HAND, when, seat, cards, *(holds(c, seat) for c in cards))


def dealt(
    settings: Settings, deck: tuple[str, ...], envelope: tuple[str, str, str], hands: Hands
) -> list[ev.Event]:
    roles = ("scarlett", "mustard", "white")
    seats = tuple(ev.Deal(user=i + 1, role=roles[i], hand=h) for i, h in enumerate(hands))
    return [
        ev.LobbyOpened(
            at=T0, seed=1, settings=settings, format=REGISTRY.format_for(settings), creator=1
        ),
        ev.GameStarted(at=T0, deck=deck, envelope=envelope, seats=seats),
    ]


def at_table(board: str, cards: tuple[str, ...]) -> ev.BoardSetUp:
    return ev.BoardSetUp(
        at=T0, board=board, tokens=(), weapons=tuple((w, "kitchen") for w in cards)
    )


# --- the forum ----------------------------------------------------------------------------

FORUM_DECK: tuple[str, ...] = ("scarlett", "mustard", "white", "candlestick", "dagger", "rope")
FORUM_DECK += ("kitchen", "ballroom", "library", "lounge", "hall", "study")


def forum_game() -> list[ev.Event]:
    """Alice holds Scarlett, the Rope and the Kitchen; Bob Mustard, the Dagger and the
    Ballroom; Carol the Hall, the Study and the Library. The envelope: White, the
    Candlestick, the Lounge."""
    hands = (
        ("scarlett", "rope", "kitchen"),
        ("mustard", "dagger", "ballroom"),
        ("library", "hall", "study"),
    )
    events = dealt(Settings(), FORUM_DECK, ("white", "candlestick", "lounge"), hands)

    def suggest(
        number: int, day: int, by: int, to: int, cards: tuple[str, str, str]
    ) -> ev.SuggestionMade:
        s, w, p = cards
        return ev.SuggestionMade(
            at=T0,
            suggestion=number,
            day=day,
            number=1,
            suggester=by,
            target=to,
            suspect=s,
            weapon=w,
            place=p,
            answer_due=LATER,
        )

    return [
        *events,
        ev.DayOpened(at=T0, day=1, ends_at=LATER),
        suggest(1, 1, ALICE, BOB, ("mustard", "rope", "hall")),
        ev.SuggestionRefuted(at=T0, suggestion=1, card="mustard"),
        suggest(2, 1, CAROL, ALICE, ("white", "dagger", "lounge")),
        ev.SuggestionNotRefuted(at=T0, suggestion=2),
        suggest(3, 1, ALICE, CAROL, ("scarlett", "candlestick", "study")),
        ev.SuggestionRefuted(at=LATER, suggestion=3, card="study", by_gm=True, penalized=True),
        ev.DayEnded(at=LATER, day=1),
        ev.DayOpened(at=LATER, day=2, ends_at=LATER + timedelta(hours=24)),
        ev.WindowOpened(at=LATER, window=1, closes_at=LATER + timedelta(hours=24)),
        ev.AccusationMade(
            at=LATER, seat=ALICE, window=1, suspect="white", weapon="candlestick", place="library"
        ),
        ev.PlayerLeft(at=LATER, seat=BOB),
        suggest(4, 2, CAROL, BOB, ("mustard", "candlestick", "ballroom")),
        ev.SuggestionRefuted(at=LATER, suggestion=4, card="mustard", by_gm=True),
        ev.SeatReplaced(at=LATER, seat=CAROL, old_user=3, new_user=7),
        ev.AccusationJudged(at=LATER, seat=ALICE, correct=False),
        ev.WindowClosed(at=LATER, window=1),
    ]


def test_the_forum_suggester_sees_the_card_the_others_that_one_was_shown() -> None:
    one, two = ("mustard", "rope", "hall"), ("white", "dagger", "lounge")
    three, four = ("scarlett", "candlestick", "study"), ("mustard", "candlestick", "ballroom")
    accused = ("white", "candlestick", "library")
    assert case_of(forum_game(), ALICE).facts == (
        hand(ALICE, 0, "scarlett", "rope", "kitchen"),
        fact(K.SHOWN, 1, BOB, ("mustard",), holds("mustard", BOB)),
        # the GM shows a silent player's first match: so Carol has no Scarlett, no Candlestick
        fact(K.SHOWN_BY_GM, 1, CAROL, ("study",), holds("study", CAROL)),
        fact(
            K.GM_ORDER, 1, CAROL, ("study",), lacks("scarlett", CAROL), lacks("candlestick", CAROL)
        ),
        fact(K.REFUTED, 2, BOB, four, one_of(BOB, four)),  # Bob left but still holds his cards
        fact(K.WRONG_ACCUSATION, 2, ALICE, accused, not_all(ENVELOPE, accused)),
    )
    assert case_of(forum_game(), BOB).facts == (
        hand(BOB, 0, "mustard", "dagger", "ballroom"),
        fact(K.NOT_REFUTED, 1, ALICE, two, *(lacks(c, ALICE) for c in two)),
        fact(K.REFUTED, 1, CAROL, three, one_of(CAROL, three)),
    )
    assert case_of(forum_game(), CAROL).facts == (  # a newcomer keeps the seat's notebook
        hand(CAROL, 0, "library", "hall", "study"),
        fact(K.REFUTED, 1, BOB, one, one_of(BOB, one)),
        fact(K.NOT_REFUTED, 1, ALICE, two, *(lacks(c, ALICE) for c in two)),
        fact(K.SHOWN_BY_GM, 2, BOB, ("mustard",), holds("mustard", BOB)),  # the first: no GM_ORDER
    )


def test_the_forum_notebook_day_by_day() -> None:
    events = forum_game()
    assert case_of(events, ALICE).sizes == ((ALICE, 3), (BOB, 3), (CAROL, 3))
    assert len(case_of(events, ALICE, until=1).facts) == 4  # the accusation was judged on day 2
    assert [when for when, _ in cases_over_time(events, ALICE)] == [0, 1, 1, 2, 2]


# --- the classic table ----------------------------------------------------------------------

CLASSIC_HANDS = (
    ("scarlett", "mustard", "candlestick", "dagger", "kitchen", "ballroom"),
    ("white", "green", "lead_pipe", "revolver", "conservatory", "dining_room"),
    ("peacock", "rope", "billiard_room", "library", "lounge", "hall"),
)


def table_suggests(turn: int, number: int, by: int, cards: tuple[str, str, str]) -> list[ev.Event]:
    s, w, room = cards
    return [
        ev.TurnStarted(at=T0, turn=turn, seat=by, due=None),
        ev.TableSuggestionMade(
            at=T0, turn=turn, suggestion=number, suggester=by, suspect=s, weapon=w, room=room
        ),
    ]


def classic_game() -> list[ev.Event]:
    """Alice, Bob and Carol in turn, six cards each (CLASSIC_HANDS); the envelope: Plum,
    the Wrench, the Study. Alice is away at turn 2, so the GM shows for her."""
    deck = TABLE_CARDS.all_cards
    events = dealt(Settings(format="classic"), deck, ("plum", "wrench", "study"), CLASSIC_HANDS)
    events.append(at_table("classic", TABLE_CARDS.weapons))
    events += table_suggests(1, 1, ALICE, ("peacock", "wrench", "kitchen"))
    events += [
        ev.CouldNotRefute(at=T0, suggestion=1, seat=BOB),
        ev.RefuterAsked(at=T0, suggestion=1, seat=CAROL, due=LATER),
        ev.CardShown(at=T0, suggestion=1, seat=CAROL, card="peacock"),
    ]
    events += table_suggests(2, 2, BOB, ("plum", "dagger", "study"))
    events += [
        ev.CouldNotRefute(at=T0, suggestion=2, seat=CAROL),
        ev.CardShown(at=T0, suggestion=2, seat=ALICE, card="dagger", by_gm=True),
        ev.TurnStarted(at=T0, turn=3, seat=CAROL, due=None),
        ev.AccusedAtTable(
            at=T0,
            turn=3,
            seat=CAROL,
            suspect="plum",
            weapon="lead_pipe",
            place="study",
            correct=False,
        ),
    ]
    events += table_suggests(4, 3, ALICE, ("scarlett", "candlestick", "ballroom"))
    events += [
        ev.CouldNotRefute(at=T0, suggestion=3, seat=BOB),
        ev.CouldNotRefute(at=T0, suggestion=3, seat=CAROL),
        ev.NobodyRefuted(at=T0, suggestion=3),
    ]
    return events


def test_at_the_table_everyone_sees_who_could_not_refute_and_who_showed() -> None:
    one, two = ("peacock", "wrench", "kitchen"), ("plum", "dagger", "study")
    four, accused = ("scarlett", "candlestick", "ballroom"), ("plum", "lead_pipe", "study")
    events = classic_game()
    assert case_of(events, ALICE).facts == (
        hand(ALICE, 0, *CLASSIC_HANDS[ALICE]),
        fact(K.NOT_REFUTED, 1, BOB, one, *(lacks(c, BOB) for c in one)),
        fact(K.SHOWN, 1, CAROL, ("peacock",), holds("peacock", CAROL)),
        fact(K.NOT_REFUTED, 2, CAROL, two, *(lacks(c, CAROL) for c in two)),
        fact(K.NOT_REFUTED, 4, BOB, four, *(lacks(c, BOB) for c in four)),
        fact(K.NOT_REFUTED, 4, CAROL, four, *(lacks(c, CAROL) for c in four)),
    )
    assert case_of(events, BOB).facts == (
        hand(BOB, 0, *CLASSIC_HANDS[BOB]),
        fact(K.REFUTED, 1, CAROL, one, one_of(CAROL, one)),
        fact(K.NOT_REFUTED, 2, CAROL, two, *(lacks(c, CAROL) for c in two)),
        fact(K.SHOWN_BY_GM, 2, ALICE, ("dagger",), holds("dagger", ALICE)),
        fact(
            K.GM_ORDER, 2, ALICE, ("dagger",), lacks("plum", ALICE)
        ),  # Plum comes before the Dagger
        fact(K.NOT_REFUTED, 4, CAROL, four, *(lacks(c, CAROL) for c in four)),
    )
    assert case_of(events, CAROL).facts == (
        hand(CAROL, 0, *CLASSIC_HANDS[CAROL]),
        fact(K.NOT_REFUTED, 1, BOB, one, *(lacks(c, BOB) for c in one)),
        fact(K.REFUTED, 2, ALICE, two, one_of(ALICE, two)),
        fact(K.WRONG_ACCUSATION, 3, CAROL, accused, not_all(ENVELOPE, accused)),
        fact(K.NOT_REFUTED, 4, BOB, four, *(lacks(c, BOB) for c in four)),
    )
    assert case_of(events, CAROL, until=2) == case_of(events[:-7], CAROL)


# --- the Liars Edition ------------------------------------------------------------------------


def liars_game() -> list[ev.Event]:
    """CLASSIC_HANDS with the Liars Edition's cards (the envelope: Plum, the Statue, the
    Study). Turn 1: nobody refutes Alice's suggestion, Bob catches her lie and she puts the
    Kitchen face up. Turn 2: Carol wrongly calls Bob a liar and shows him the Rope; everyone
    passes left (Alice the Dagger, Bob White, Carol the Rope). Turn 3: Carol peeks at Bob."""
    deck = LIARS_PACK.all_cards
    events = dealt(Settings(format="liars"), deck, ("plum", "statue", "study"), CLASSIC_HANDS)
    events += [
        at_table("liars", LIARS_PACK.weapons),
        lev.InvestigationDealt(at=T0, held=("lie", "pass", "peek"), draw=("move", "move", "move")),
    ]
    events += table_suggests(1, 1, ALICE, ("plum", "statue", "ballroom"))
    events += [
        ev.CouldNotRefute(at=T0, suggestion=1, seat=BOB),
        ev.CouldNotRefute(at=T0, suggestion=1, seat=CAROL),
        ev.NobodyRefuted(at=T0, suggestion=1),
        lev.InvestigationRead(at=T0, turn=1, seat=ALICE, action=Action.PASS, card="lie", due=LATER),
        lev.LiarCalled(at=T0, turn=1, seat=BOB, reader=ALICE, lie=True, due=LATER),
        lev.CardExposed(at=T0, turn=1, seat=ALICE, card="kitchen"),
        lev.InvestigationDrawn(at=T0, turn=1, seat=ALICE, card="move"),
        ev.TurnStarted(at=T0, turn=2, seat=BOB, due=None),
        lev.InvestigationRead(at=T0, turn=2, seat=BOB, action=Action.PASS, card="pass", due=LATER),
        lev.LiarCalled(at=T0, turn=2, seat=CAROL, reader=BOB, lie=False),
        lev.TruthShown(at=T0, turn=2, seat=CAROL, reader=BOB, card="rope"),
        lev.ActionBegun(
            at=T0, turn=2, seat=BOB, action=Action.PASS, stage=Stage.PASSING, passers=(0, 1, 2)
        ),
        lev.PassChosen(at=T0, turn=2, seat=ALICE, card="dagger"),
        lev.PassChosen(at=T0, turn=2, seat=BOB, card="white"),
        lev.PassChosen(at=T0, turn=2, seat=CAROL, card="rope"),
        lev.CardsPassed(
            at=T0,
            turn=2,
            moves=((ALICE, BOB, "dagger"), (BOB, CAROL, "white"), (CAROL, ALICE, "rope")),
        ),
        ev.TurnStarted(at=T0, turn=3, seat=CAROL, due=None),
        lev.InvestigationRead(
            at=T0, turn=3, seat=CAROL, action=Action.PEEK, card="peek", due=LATER
        ),
        lev.NoLiarCalled(at=T0, turn=3),
        lev.ActionBegun(at=T0, turn=3, seat=CAROL, action=Action.PEEK, stage=Stage.PEEK),
        lev.Peeked(at=T0, turn=3, seat=CAROL, target=BOB, cards=("dagger", "green")),
    ]
    return events


def test_the_liars_notebook_after_a_card_face_up_and_a_pass() -> None:
    one = ("plum", "statue", "ballroom")
    kitchen = fact(K.FACE_UP, 1, ALICE, ("kitchen",), holds("kitchen", FACE_UP))
    events = liars_game()
    assert case_of(events, ALICE).facts == (
        # Bob got only Alice's Dagger: he still lacks the three; Carol got an unseen card
        fact(K.NOT_REFUTED, 1, BOB, one, *(lacks(c, BOB) for c in one)),
        kitchen,
        # before the pass: nobody else holds Plum or the Statue, so they are in the envelope
        fact(K.PASSED, 2, None, (), holds("plum", ENVELOPE), holds("statue", ENVELOPE)),
        fact(K.PASSED_BY_YOU, 2, BOB, ("dagger",), holds("dagger", BOB)),
        fact(K.PASSED_TO_YOU, 2, CAROL, ("rope",), holds("rope", ALICE)),
        hand(ALICE, 2, "scarlett", "mustard", "candlestick", "rope", "ballroom"),
    )
    rope_moved = Clause((Literal(Holding("rope", CAROL)), Literal(Holding("rope", ALICE))))
    assert case_of(events, BOB).facts == (
        fact(K.NOT_REFUTED, 1, CAROL, one, *(lacks(c, CAROL) for c in one)),  # got White only
        kitchen,
        fact(K.TRUTH_SHOWN, 2, CAROL, ("rope",), rope_moved),  # Carol may have passed it on
        fact(K.PASSED_BY_YOU, 2, CAROL, ("white",), holds("white", CAROL)),
        fact(K.PASSED_TO_YOU, 2, ALICE, ("dagger",), holds("dagger", BOB)),
        hand(BOB, 2, "green", "dagger", "lead_pipe", "revolver", "conservatory", "dining_room"),
    )
    assert case_of(events, CAROL).facts == (
        kitchen,  # Bob's "could not refute" is gone: he got a card Carol did not see
        fact(K.PASSED_BY_YOU, 2, ALICE, ("rope",), holds("rope", ALICE)),
        fact(K.PASSED_TO_YOU, 2, BOB, ("white",), holds("white", CAROL)),
        hand(CAROL, 2, "white", "peacock", "billiard_room", "library", "lounge", "hall"),
        fact(K.PEEKED, 3, BOB, ("dagger", "green"), holds("dagger", BOB), holds("green", BOB)),
    )
    assert case_of(events, CAROL).sizes == ((ALICE, 5), (BOB, 6), (CAROL, 6), (FACE_UP, 1))


# --- the 2023 edition, two players ----------------------------------------------------------

PLACED = (("kitchen", "mustard"), ("ballroom", "rope"), ("hall", "lounge"), ("library", "dagger"))
Y2023_HANDS = (
    ("scarlett", "chef_white", "candlestick", "lead_pipe", "kitchen", "ballroom", "conservatory"),
    (
        "mayor_green",
        "solicitor_peacock",
        "revolver",
        "dining_room",
        "billiard_room",
        "library",
        "hall",
    ),
)


def y2023_game() -> list[ev.Event]:
    """Two players, four cards face down in rooms (PLACED); the envelope: Plum, the Wrench,
    the Study. Alice looks at the Kitchen's card, draws "the Hall's holder reveals it",
    and Bob shows her the Revolver; Bob's clue card has Alice show him a random card, and
    Alice shows him Scarlett; Alice's next clue card names the Study, which nobody holds."""
    settings = Settings(format="y2023", min_players=2)
    events = dealt(settings, Y2023.all_cards, ("plum", "wrench", "study"), Y2023_HANDS)
    events += [
        at_table("classic", Y2023.weapons),
        yev.EditionSetUp(
            at=T0,
            placed=PLACED,
            face_up=(),
            clues=("reveal_hall", "left_shows_1", "reveal_study"),
            first_rolls=((0, 6), (1, 2)),
        ),
        ev.TurnStarted(at=T0, turn=1, seat=ALICE, due=None),
        yev.PlacedCardSeen(at=T0, turn=1, seat=ALICE, room="kitchen", card="mustard"),
        yev.ClueCardDrawn(at=T0, turn=1, seat=ALICE, clue="reveal_hall"),
        yev.ClueRevealed(at=T0, clue="reveal_hall", card="hall", seat=BOB),
        ev.TableSuggestionMade(
            at=T0,
            turn=1,
            suggestion=1,
            suggester=ALICE,
            suspect="plum",
            weapon="revolver",
            room="kitchen",
        ),
        ev.CardShown(at=T0, suggestion=1, seat=BOB, card="revolver"),
        ev.TurnStarted(at=T0, turn=2, seat=BOB, due=None),
        yev.ClueCardDrawn(at=T0, turn=2, seat=BOB, clue="left_shows_1"),
        yev.ClueCardShown(at=T0, clue="left_shows_1", seat=ALICE, to=BOB, card="ballroom"),
        ev.TableSuggestionMade(
            at=T0,
            turn=2,
            suggestion=2,
            suggester=BOB,
            suspect="scarlett",
            weapon="wrench",
            room="library",
        ),
        ev.CardShown(at=T0, suggestion=2, seat=ALICE, card="scarlett"),
        ev.TurnStarted(at=T0, turn=3, seat=ALICE, due=None),
        yev.ClueCardDrawn(at=T0, turn=3, seat=ALICE, clue="reveal_study"),
        yev.ClueRevealed(at=T0, clue="reveal_study", card="study", seat=None),
    ]
    return events


def test_the_2023_notebook_with_cards_in_rooms_and_clue_cards() -> None:
    events = y2023_game()
    assert case_of(events, ALICE).sizes == ((ALICE, 7), (BOB, 7), (ROOMS, 4))
    assert case_of(events, ALICE).facts == (
        hand(ALICE, 0, *Y2023_HANDS[ALICE]),
        fact(K.SEEN_IN_ROOM, 1, None, ("mustard",), holds("mustard", ROOMS)),
        fact(K.REVEALED, 1, BOB, ("hall",), holds("hall", BOB)),
        fact(K.SHOWN, 1, BOB, ("revolver",), holds("revolver", BOB)),
        fact(K.REVEALED, 3, None, ("study",), lacks("study", BOB)),
    )
    assert case_of(events, BOB).facts == (
        hand(BOB, 0, *Y2023_HANDS[BOB]),
        fact(K.CLUE_SHOWN, 2, ALICE, ("ballroom",), holds("ballroom", ALICE)),
        fact(K.SHOWN, 2, ALICE, ("scarlett",), holds("scarlett", ALICE)),
        fact(K.REVEALED, 3, None, ("study",), lacks("study", ALICE)),
    )
