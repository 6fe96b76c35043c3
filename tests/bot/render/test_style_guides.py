"""Each language's style guide (`locales/style/<lang>.md`) is kept by its catalog: the guide
has its sections, and its table of terms holds — every term we write is in the catalog, and
no word the guide rules out appears in any message of that language."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

import locales
from locales import LANGUAGES, catalog
from tests.support.catalogs import forms

GUIDES = Path(locales.__file__).parent / "style"
SECTIONS = ("## Register", "## Names in a sentence", "## Card names", "## Terms")


def guide(lang: str) -> str:
    return (GUIDES / f"{lang}.md").read_text(encoding="utf-8")


@cache
def terms(lang: str) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """The rows of the guide's table of terms: (idea, what we write, what we never write)."""
    section = guide(lang).split("## Terms", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not line.lstrip().startswith("|"):
            continue
        if cells[0].lower() == "idea" or set(cells[0]) <= set("-: "):
            continue
        rows.append((cells[0], words(cells[1]), words(cells[2])))
    return tuple(rows)


def words(cell: str) -> tuple[str, ...]:
    """A cell's comma-separated words or phrases, backticks dropped ("—" for none)."""
    return tuple(w.strip().strip("`") for w in cell.split(",") if w.strip() not in ("", "—"))


def pattern(word: str) -> re.Pattern[str]:
    """A whole word or phrase; `word*` also matches its longer forms (a stem)."""
    stem = word.endswith("*")
    end = "" if stem else r"(?!\w)"
    return re.compile(r"(?<!\w)" + re.escape(word.rstrip("*")) + end, re.IGNORECASE)


@cache
def texts(lang: str) -> tuple[tuple[str, str], ...]:
    """Every message of a language, each plural form apart: (key, text)."""
    return tuple(
        (key, text) for key, entry in catalog(lang).items() for text in forms(entry).values()
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_its_guide_with_every_section(lang: str) -> None:
    text = guide(lang)
    missing = [section for section in SECTIONS if section not in text]
    assert missing == [], f"locales/style/{lang}.md lacks {missing}"
    assert len(terms(lang)) >= 8, f"locales/style/{lang}.md lists too few terms"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_term_we_write_is_in_the_catalog(lang: str) -> None:
    unused = [
        (idea, word)
        for idea, ours, _ in terms(lang)
        for word in ours
        if not any(pattern(word).search(text) for _, text in texts(lang))
    ]
    assert unused == [], f"{lang}: terms the guide names that no message uses: {unused}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_uses_a_word_the_guide_rules_out(lang: str) -> None:
    found = [
        (key, word, idea)
        for idea, _, never in terms(lang)
        for word in never
        for key, text in texts(lang)
        if pattern(word).search(text)
    ]
    assert found == [], f"{lang}: words the guide rules out, in (key, word, idea): {found}"


def test_the_patterns_match_words_not_parts_of_words() -> None:
    assert pattern("ГМ").search("ход ГМ.")
    assert not pattern("ГМ").search("ГМТ")
    assert pattern("орудие*").search("Орудием")
    assert not pattern("lobby").search("lobbyist")
    assert words("`ведущий*`, ГМ") == ("ведущий*", "ГМ")
    assert words("—") == ()
