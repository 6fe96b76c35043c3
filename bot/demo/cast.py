"""Who plays in the demo: the people at the table, with names of the chosen language and a
computer detective's level each."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot.demo.options import LANGUAGES, MAX_PLAYERS, Options
from engine.detectives import Level

# First names and the @usernames they go by (Telegram's usernames are Latin letters).
NAMES: Mapping[str, tuple[tuple[str, str], ...]] = MappingProxyType(
    {
        "en": (
            ("Alice", "alice"),
            ("Bob", "bob"),
            ("Carol", "carol"),
            ("Dave", "dave"),
            ("Eve", "eve"),
            ("Frank", "frank"),
        ),
        "ru": (
            ("Алиса", "alisa"),
            ("Борис", "boris"),
            ("Вера", "vera"),
            ("Глеб", "gleb"),
            ("Дарья", "darya"),
            ("Егор", "egor"),
        ),
        "uk": (
            ("Оксана", "oksana"),
            ("Богдан", "bohdan"),
            ("Соломія", "solomiia"),
            ("Тарас", "taras"),
            ("Ганна", "hanna"),
            ("Остап", "ostap"),
        ),
        "be": (
            ("Алеся", "alesia"),
            ("Янка", "janka"),
            ("Кася", "kasia"),
            ("Міхась", "mikhas"),
            ("Ганна", "hanna"),
            ("Алесь", "ales"),
        ),
        "eo": (
            ("Klara", "klara"),
            ("Petro", "petro"),
            ("Marta", "marta"),
            ("Johano", "johano"),
            ("Eva", "eva"),
            ("Ludoviko", "ludoviko"),
        ),
        "nl": (
            ("Anouk", "anouk"),
            ("Bram", "bram"),
            ("Lotte", "lotte"),
            ("Daan", "daan"),
            ("Femke", "femke"),
            ("Joost", "joost"),
        ),
        "de": (
            ("Anna", "anna"),
            ("Ben", "ben"),
            ("Clara", "clara"),
            ("Daniel", "daniel"),
            ("Emma", "emma"),
            ("Felix", "felix"),
        ),
        "es": (
            ("Ana", "ana"),
            ("Bruno", "bruno"),
            ("Carmen", "carmen"),
            ("Diego", "diego"),
            ("Elena", "elena"),
            ("Fernando", "fernando"),
        ),
    }
)
assert set(NAMES) == set(LANGUAGES), "a name list for every catalog"
assert all(len(names) >= MAX_PLAYERS for names in NAMES.values()), "a name for every seat"
LEVELS = (Level.INSPECTOR, Level.SLEUTH, Level.NOVICE)


@dataclass(frozen=True)
class Seat:
    """One person at the table: their name, @username and detective's level."""

    name: str
    username: str
    level: Level


def cast(options: Options) -> list[Seat]:
    """The people of the game, in the order they come to it (the first opens the lobby);
    the levels go round and are shuffled by the seed."""
    names = NAMES[options.language][: options.players]
    levels = [LEVELS[i % len(LEVELS)] for i in range(options.players)]
    random.Random(options.seed).shuffle(levels)
    return [Seat(name, user, level) for (name, user), level in zip(names, levels, strict=True)]
