"""One player's notebook as a plain payload: what the outbox row carries, rendered in the
reader's language at send time (bot.render.notebook_text, notebook_post).

The payload holds no words, only card ids, seats, users and numbers:
- `level`: the game's `notebook` setting; `table`: turns (True) or days; `when`: the last
  day or turn; `player`: the reader's user id; `owners`: [owner, user id or None], the
  seats in order, then the face-up cards (-2) if any and the envelope (-1);
- `categories`: the cards in play; `hand`: the reader's cards; `seen`: the cards shown to
  the reader alone;
- `cells`: [card, owner, 1 or 0] for every cell the level shows as settled;
- `odds`: [card, owner, percent] for the cells left open (level `odds`);
- `deductions`: [{"cells": [[card, owner, 1 or 0], ...], "why": [source, ...]}] — what
  follows, grouped by reason (levels `deductions` and `odds`);
- `facts`: [source, ...] — what the reader observed that settles no cell by itself;
- `own`: [card, owner, mark, note] — the reader's own marks.
A source is {"kind", "when", "user" (the player it is about, or None), "cards"}.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.events import Event
from engine.format import format_of
from engine.ids import Seat
from engine.notebook.explain import explain
from engine.notebook.facts import (
    ENVELOPE,
    FACE_UP,
    ROOMS,
    Case,
    Fact,
    Holding,
    Owner,
    Source,
    SourceKind,
)
from engine.notebook.observe import case_of
from engine.notebook.solve import Solution, solve
from engine.settings import NotebookHelp
from engine.state import Game
from storage.notebooks import OwnMark

Payload = dict[str, Any]
# Observations in which a card was shown to the reader alone.
SEEN = frozenset(
    {
        SourceKind.SHOWN,
        SourceKind.SHOWN_BY_GM,
        SourceKind.TRUTH_SHOWN,
        SourceKind.CLUE_SHOWN,
        SourceKind.PEEKED,
        SourceKind.PASSED_TO_YOU,
        SourceKind.SEEN_IN_ROOM,
    }
)


def sheet_key(game: Game, events: Sequence[Event], seat: Seat) -> Hashable:
    """What the seat's sheet is made of (`sheet_of` reads nothing else): equal keys, equal
    sheets, so a change that tells the seat nothing new needs no sheet worked out again."""
    return (
        game.settings.notebook,
        format_of(game).plays_turns(game),
        tuple((p.seat, p.user) for p in game.players),
        tuple(game.players[seat].hand),
        case_of(events, seat),
    )


def sheet_of(game: Game, events: Sequence[Event], seat: Seat) -> Payload:
    """The seat's notebook at the game's level of help, without the player's own marks
    (CPU-bound: run it off the loop)."""
    level = game.settings.notebook
    case = case_of(events, seat)
    users = {p.seat: p.user for p in game.players}
    sheet: Payload = {
        "level": level.value,
        "table": format_of(game).plays_turns(game),
        "when": _last_moment(case),
        "player": users[seat],
        "owners": [[o, users.get(o)] for o in _columns(case)],
        "categories": [list(c) for c in case.categories],
        "hand": list(game.players[seat].hand),
        "seen": sorted({c for f in case.facts if f.source.kind in SEEN for c in f.source.cards}),
        "cells": [],
        "odds": [],
        "deductions": [],
        "facts": [],
        "own": [],
    }
    if level is NotebookHelp.OFF:
        return sheet
    direct = _direct_cells(case)
    open_facts = [f for f in case.facts if not _settles(f)]
    sheet["facts"] = [_source(f.source, users) for f in open_facts]
    if level is NotebookHelp.FACTS:
        sheet["cells"] = [[h.card, h.owner, int(v)] for h, v in sorted(direct.items())]
        return sheet
    solution = solve(case, odds=level is NotebookHelp.ODDS)
    if not solution.consistent:  # cannot happen with the GM's own facts; show the facts
        sheet["cells"] = [[h.card, h.owner, int(v)] for h, v in sorted(direct.items())]
        return sheet
    sheet["cells"] = [[h.card, h.owner, int(v)] for h, v in sorted(solution.forced.items())]
    sheet["deductions"] = _deductions(case, solution, direct, users, seat)
    if solution.odds:
        sheet["odds"] = [
            [h.card, h.owner, _percent(p)]
            for h, p in sorted(solution.odds.items())
            if h not in solution.forced
        ]
    return sheet


def with_marks(sheet: Payload, own: Mapping[tuple[str, int], OwnMark]) -> Payload:
    """The sheet with the player's own marks."""
    marks = [[card, owner, m.mark, m.note] for (card, owner), m in sorted(own.items())]
    return {**sheet, "own": marks}


def _columns(case: Case) -> list[Owner]:
    seats = sorted(o for o, _ in case.sizes if o >= 0)
    shared = [owner for owner in (FACE_UP, ROOMS) if case.size_of(owner)]
    return [*seats, *shared, ENVELOPE]


def _last_moment(case: Case) -> int:
    return max((f.source.when for f in case.facts), default=0)


def _direct_cells(case: Case) -> dict[Holding, bool]:
    """The cells a single observation settles on its own (a one-literal clause)."""
    cells: dict[Holding, bool] = {}
    for fact in case.facts:
        for clause in fact.clauses:
            if len(clause.literals) == 1:
                literal = clause.literals[0]
                cells[literal.holding] = literal.holds
    return cells


def _settles(fact: Fact) -> bool:
    return all(len(c.literals) == 1 for c in fact.clauses)


def _deductions(
    case: Case,
    solution: Solution,
    direct: Mapping[Holding, bool],
    users: Mapping[Seat, int],
    seat: Seat,
) -> list[Payload]:
    """The forced cells no single observation settles, grouped by their reason: not the
    reader's own column (they know their hand), nor a "not here" that a known holder or the
    category's known envelope card already says."""
    groups: dict[tuple[int, ...], list[list[Any]]] = {}
    said = _said_elsewhere(case, solution)
    for holding, value in sorted(solution.forced.items()):
        if holding.owner == seat or direct.get(holding) == value or holding in said:
            continue
        why = explain(case, holding, value)
        groups.setdefault(why, []).append([holding.card, holding.owner, int(value)])
    return [
        {"cells": cells, "why": [_source(case.facts[i].source, users) for i in why]}
        for why, cells in groups.items()
    ]


def _said_elsewhere(case: Case, solution: Solution) -> set[Holding]:
    """The "not here" cells that another forced cell already says: the card's holder is
    known, or its category's envelope card is."""
    held = {h.card for h, value in solution.forced.items() if value}
    in_envelope = {h.card for h, value in solution.forced.items() if value and h.owner == ENVELOPE}
    solved = {c for category in case.categories if in_envelope & set(category) for c in category}
    return {
        h
        for h, value in solution.forced.items()
        if not value and (h.card in held or (h.owner == ENVELOPE and h.card in solved))
    }


def _source(source: Source, users: Mapping[Seat, int]) -> Payload:
    user = users.get(source.seat) if source.seat is not None else None
    return {
        "kind": source.kind.value,
        "when": source.when,
        "user": user,
        "cards": list(source.cards),
    }


def _percent(p: Fraction) -> int:
    """A probability as a whole percent; never 0 or 100 for a cell that is still open."""
    return min(99, max(1, round(p * 100)))
