"""The toy fourth edition is these files and nothing else: its engine format and its bot
presentation in its own package, played through registries built from tuples (the
engine's `Registry((*FORMATS, TOY))`, the bot's editions `(*EDITIONS, TOY_BOT)`). No
shipped file (engine, bot, storage, locales) names it, nor imports the tests."""

from __future__ import annotations

import re
from pathlib import Path

from locales import LANGUAGES, has
from tests.support.toy_edition.bot import KNOCKED

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "tests" / "support" / "toy_edition"
TOY_FILES = (
    "tests/support/toy_edition/__init__.py",  # the engine's format: D4, Knock, Knocked
    "tests/support/toy_edition/bot.py",  # its presentation: TOY_BOT, its knock's words
)
TOY_TESTS = (
    "tests/engine/table/test_toy_edition.py",
    "tests/bot/editions/test_presentations.py",
    "tests/bot/editions/test_toy_e2e.py",
    "tests/bot/editions/test_toy_files.py",
)
SHIPPED = ("engine", "bot", "storage", "locales")
# what names the toy: its key, its alias, its classes and values, its package, its text
NAMES = re.compile(
    r"\b(toy_d4|d4|D4|Knock|Knocked|ToyPart|TOY_BOT|TOY_REGISTRY|toy_edition|toy\.knocked)\b"
    r"|knocks on the table|from tests|import tests"
)


def test_the_toy_is_its_own_package_and_its_tests() -> None:
    found = sorted(
        str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*") if p.is_file() and p.suffix == ".py"
    )
    assert found == sorted(TOY_FILES)
    assert all((ROOT / name).is_file() for name in TOY_TESTS)


def test_no_shipped_file_names_the_toy() -> None:
    named = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in SHIPPED
        for path in sorted((ROOT / folder).rglob("*"))
        if path.is_file() and path.suffix in (".py", ".json", ".md")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if NAMES.search(line)
    ]
    assert named == []


def test_the_toy_package_names_no_catalog_key_of_its_own() -> None:
    """Its one text is a composer's key, in no shipped catalog (the toy ships nowhere)."""
    assert not any(has(language, KNOCKED) for language in LANGUAGES)
