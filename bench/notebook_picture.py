"""Notebook picture benchmark: the time to draw a notebook and its PNG's size.

    .venv/bin/python -m bench.notebook_picture [--repeats 50] [--sample /tmp/notebook_sample.png]

Three grids: a 6-player forum game (6 + 6 + 9 cards), a 3-player classic game, and the
largest (10 players, the envelope and the cards face up; 40 cards; long Cyrillic names;
odds in every cell). Prints p50 and p95 of the drawing time (warm: fonts and cells cached,
as in a running bot; and the first drawing of each), the CPU time, and the bytes.
Targets: at most 100 ms and under 200 KB.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from bot.render.notebook_grid import Cell, Flag, Grid, Mark, Row, Section
from bot.render.notebook_picture import notebook_png

SUSPECTS = ("Miss Scarlett", "Colonel Mustard", "Mrs White", "Mr Green", "Mrs Peacock")
WEAPONS = ("Candlestick", "Dagger", "Lead Pipe", "Revolver", "Rope", "Wrench")
ROOMS = (
    "Kitchen",
    "Ballroom",
    "Conservatory",
    "Dining Room",
    "Billiard Room",
    "Library",
    "Lounge",
    "Hall",
    "Study",
)
LEGEND_EN = (
    (Mark.HAS, "holds"),
    (Mark.LACKS, "does not hold"),
    (Mark.OWN_YES, "your mark: holds"),
    (Mark.OWN_NO, "your mark: does not"),
    (Mark.OWN_MAYBE, "your mark: maybe"),
    (Flag.OWN_HAND, "your card"),
    (Flag.SEEN, "shown to you"),
    (Flag.SOLVED, "in the envelope"),
)
RU_NAMES = (
    "Александра Константиновна",
    "Владислав",
    "Екатерина Вознесенская",
    "Ё",
    "Святополк Мирский",
    "Анастасия",
    "Дмитрий Шостакович-Младший",
    "Ольга",
    "Преподобный Иннокентий",
    "Жанна",
)
RU_CARDS = (
    "Мисс Скарлетт",
    "Полковник Горчица",
    "Миссис Уайт",
    "Преподобный Грин",
    "Миссис Павлин",
    "Профессор Слива",
    "Подсвечник",
    "Кинжал",
    "Свинцовая труба",
    "Револьвер",
    "Верёвка",
    "Гаечный ключ",
    "Кухня",
    "Бальный зал",
    "Оранжерея",
    "Столовая",
    "Бильярдная",
    "Библиотека",
    "Гостиная",
    "Холл",
    "Кабинет",
)


def _cells(rng: random.Random, columns: int, envelope: int, odds: bool) -> tuple[Cell, ...]:
    """A row of plausible cells: some proven, some pencilled, odds on the rest."""
    cells = []
    for i in range(columns):
        roll = rng.random()
        percent = rng.randrange(101) if odds else None
        if roll < 0.15 and i != envelope:
            cells.append(Cell(Mark.HAS, 100 if odds else None, own_hand=i == 0, seen=i == 2))
        elif roll < 0.5:
            cells.append(Cell(Mark.LACKS, 0 if odds else None))
        elif roll < 0.6:
            cells.append(Cell(Mark.OWN_YES, percent, note="2?" if rng.random() < 0.5 else None))
        elif roll < 0.65:
            cells.append(Cell(Mark.OWN_NO, percent))
        elif roll < 0.7:
            cells.append(Cell(Mark.OWN_MAYBE, percent, note="Ал"))
        else:
            cells.append(Cell(Mark.MAYBE, percent))
    return tuple(cells)


def grid(
    players: tuple[str, ...],
    sections: tuple[tuple[str, tuple[str, ...]], ...],
    *,
    face_up: str | None = None,
    odds: bool = True,
    seed: int = 1,
) -> Grid:
    """A made-up notebook: the players' columns, the envelope's, perhaps the face-up cards'."""
    rng = random.Random(seed)
    columns = (*players, "Envelope" if face_up is None else "Конверт")
    if face_up is not None:
        columns = (*columns, face_up)
    envelope = len(players)
    built = []
    for title, cards in sections:
        rows = []
        for n, card in enumerate(cards):
            cells = _cells(rng, len(columns), envelope, odds)
            solved = n == 1
            if solved:
                cells = tuple(
                    Cell(Mark.HAS, 100 if odds else None)
                    if i == envelope
                    else Cell(Mark.LACKS, 0 if odds else None)
                    for i in range(len(columns))
                )
            rows.append(Row(card, cells, solved=solved))
        built.append(Section(title, tuple(rows)))
    footer = "Odds: exact over 1,234 possible deals" if odds else None
    return Grid(
        f"Notebook — {players[0]}, day 3", columns, envelope, tuple(built), LEGEND_EN, footer
    )


def forum_grid() -> Grid:
    """A 6-player forum game: 6 suspects, 6 weapons, 9 rooms, odds shown."""
    players = ("Alice", "Bob", "Charlotte", "Dmitri", "Eve", "Frank")
    suspects = (*SUSPECTS, "Professor Plum")
    sections = (("Suspects", suspects), ("Weapons", WEAPONS), ("Rooms", ROOMS))
    return grid(players, sections)


def classic_grid() -> Grid:
    """A 3-player classic game, no odds."""
    suspects = (*SUSPECTS, "Professor Plum")
    sections = (("Suspects", suspects), ("Weapons", WEAPONS), ("Rooms", ROOMS))
    return grid(("Alice", "Bob", "Carol"), sections, odds=False, seed=2)


def largest_grid() -> Grid:
    """10 players with long Cyrillic names, the envelope, the face-up cards; 40 cards;
    odds in every cell that is not proven."""
    cards = [f"{RU_CARDS[i % len(RU_CARDS)]} {i // len(RU_CARDS) + 1}" for i in range(40)]
    sections = (
        ("Подозреваемые", tuple(cards[:12])),
        ("Орудия", tuple(cards[12:24])),
        ("Места преступления", tuple(cards[24:])),
    )
    return grid(RU_NAMES, sections, face_up="Открытые карты", seed=3)


def measure(named: Grid, repeats: int) -> tuple[float, float, float, float, int]:
    """The first drawing's time, p50 and p95 of the rest, their CPU time's p50 (ms; the CPU
    time is what a busy machine does not inflate), and the PNG's bytes."""
    started = time.perf_counter()
    png = notebook_png(named)
    first = (time.perf_counter() - started) * 1000
    times, cpu = [], []
    for _ in range(repeats):
        started, used = time.perf_counter(), time.process_time()
        notebook_png(named)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return first, statistics.median(times), p95, statistics.median(cpu), len(png)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--sample", type=Path, default=Path("/tmp/notebook_sample.png"))
    args = parser.parse_args()
    grids = {
        "forum, 6 players, 21 cards": forum_grid(),
        "classic, 3 players, 21 cards": classic_grid(),
        "largest, 10 players + 2, 40 cards": largest_grid(),
    }
    print(f"{'grid':36} {'first ms':>9} {'p50 ms':>8} {'p95 ms':>8} {'cpu p50':>8} {'bytes':>8}")
    for name, each in grids.items():
        first, p50, p95, cpu, size = measure(each, args.repeats)
        print(f"{name:36} {first:9.1f} {p50:8.1f} {p95:8.1f} {cpu:8.1f} {size:8,}")
    args.sample.write_bytes(notebook_png(grids["largest, 10 players + 2, 40 cards"]))
    print(f"sample: {args.sample}")


if __name__ == "__main__":
    main()
