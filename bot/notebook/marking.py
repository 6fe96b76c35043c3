"""A typed mark on one's notebook: "/mark Rope @bob no seen in the hall" — a card, a
column (a player by @username or name, or the envelope), yes/no/maybe/clear, a note."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.parsing import ParseError, match_card
from bot.render.reader import Person
from engine.cards import CATEGORY_ORDER, CardId
from engine.notebook.facts import ENVELOPE, Owner
from engine.state import Game
from locales import DEFAULT_LANGUAGE, t
from storage.notebooks import OwnMark

MARKS = ("yes", "no", "maybe", "clear")


class MarkError(ValueError):
    """Why a typed mark could not be read: the catalog key and its arguments."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


def words_of(language: str, key: str) -> set[str]:
    """What a person may type for `key` in their language or in English."""
    return {
        word.strip().casefold()
        for lang in {language, DEFAULT_LANGUAGE}
        for word in t(lang, key).split(",")
        if word.strip()
    }


def read_mark(
    game: Game, words: Sequence[str], language: str, names: Mapping[int, Person], seat: int
) -> tuple[CardId, Owner, OwnMark]:
    """The cell and the mark a /mark line names (MarkError: what is wrong, in words)."""
    marks = {mark: words_of(language, f"notebook.mark_{mark}") for mark in MARKS}
    at = next(
        (
            i
            for i, w in enumerate(words)
            if i >= 2 and any(w.casefold() in m for m in marks.values())
        ),
        None,
    )
    if at is None:
        raise MarkError("notebook.mark_usage")
    chosen = next(m for m, typed in marks.items() if words[at].casefold() in typed)
    note = " ".join(words[at + 1 :]).strip() or None
    last_error = MarkError("notebook.mark_usage")
    for cut in (at - 1, at - 2):  # the column is one word ("@bob", "envelope") or two
        if cut < 1:
            continue
        try:
            owner = _owner(game, " ".join(words[cut:at]), language, names)
            card = _card(game, " ".join(words[:cut]), language)
        except MarkError as error:
            last_error = error
            continue
        own = OwnMark(None) if chosen == "clear" else OwnMark(chosen, note)
        return card, owner, own
    raise last_error


def _card(game: Game, typed: str, language: str) -> CardId:
    for category in CATEGORY_ORDER:
        try:
            return match_card(game.pack, game.in_play(category), category, typed, language)
        except ParseError:
            continue
    raise MarkError("notebook.mark_unknown_card", typed=typed)


def _owner(game: Game, typed: str, language: str, names: Mapping[int, Person]) -> Owner:
    wanted = typed.strip().casefold()
    if wanted in words_of(language, "notebook.envelope_words"):
        return ENVELOPE
    for player in game.players:
        person = names.get(player.user)
        if person is None:
            continue
        known = {person.name.casefold(), person.name.split()[0].casefold() if person.name else ""}
        if person.username:
            known.add(f"@{person.username.casefold()}")
        if wanted in known:
            return player.seat
    raise MarkError("notebook.mark_unknown_owner", typed=typed)
