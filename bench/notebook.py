"""The notebook's benchmark over recorded games: six players of every format played by the
simulation's random players, each seat's notebook worked out after every update that gave
it a fact (every cell's exact odds, then the reasons for every forced cell: `explain_all`
once per sheet), and the picture drawn from a real sheet.

    python -m bench.notebook [--games 4] [--players 6] [--formats forum,classic,liars,y2023]
                             [--count compiled|python]

Prints, per format, how many updates were timed and p50 / p95 / max per update for the
odds and for the reasons (one core; the count in machine code unless `--count python`),
and the picture's p50 / p95 render time and size in bytes. A player count the format
does not allow is refused with its range. Targets (issue 41): odds p95 ≤ 100 ms and max
≤ 1 s per update, reasons p95 ≤ 100 ms, at every player count the bot allows (forum up
to 10, the tables up to 6); the picture ≤ 100 ms (issue 26).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from datetime import timedelta

from bench.counting import add_count_option, use_count
from bot.notebook.sheet import sheet_of
from bot.render.notebook_picture import notebook_png
from bot.render.notebook_post import notebook_grid
from bot.render.reader import Person, Reader
from engine import REGISTRY
from engine.events import Event
from engine.notebook.explain import explain_all
from engine.notebook.observe import cases_over_time
from engine.notebook.solve import solve
from engine.settings import GameFormat, NotebookHelp, Settings
from engine.state import Game
from simulation.liarsplay import RandomLiars
from simulation.randomplay import RandomGame
from simulation.tableplay import RandomTable
from simulation.y2023play import RandomY2023

Played = tuple[list[Event], Game]
MOVES = 600  # a random game's moves at most
MAKERS: dict[GameFormat, type[RandomTable]] = {
    GameFormat.CLASSIC: RandomTable,
    GameFormat.LIARS: RandomLiars,
    GameFormat.Y2023: RandomY2023,
}


def _forum(seed: int, players: int) -> Played:
    g = RandomGame(seed=seed, players=players, settings=Settings(notebook=NotebookHelp.ODDS))
    g.play(max_steps=MOVES)
    return g.events, g.game


def _table(kind: str) -> Callable[[int, int], Played]:
    def play(seed: int, players: int) -> Played:
        window = timedelta(seconds=30)
        settings = Settings(format=kind, notebook=NotebookHelp.ODDS, liar_window=window)
        g = MAKERS[GameFormat(kind)](seed=seed, players=players, settings=settings)
        g.play(max_steps=MOVES)
        return g.events, g.game

    return play


FORMATS: dict[str, Callable[[int, int], Played]] = {
    "forum": _forum,
    "classic": _table(GameFormat.CLASSIC),
    "liars": _table(GameFormat.LIARS),
    "y2023": _table(GameFormat.Y2023),
}


def update_times(events: list[Event], seats: int) -> tuple[list[float], list[float]]:
    """Seconds to work out every cell's odds, and then the reasons for every forced cell,
    after each update that changed a seat's facts."""
    odds, reasons = [], []
    for seat in range(seats):
        for _, case in cases_over_time(events, seat):
            began = time.perf_counter()
            solution = solve(case, odds=True)
            solved = time.perf_counter()
            explain_all(case, solution)
            odds.append(solved - began)
            reasons.append(time.perf_counter() - solved)
    return odds, reasons


def picture_times(events: list[Event], game: Game, repeats: int) -> tuple[list[float], int]:
    """Seconds to draw seat 0's notebook (its sheet worked out once), and the PNG's bytes."""
    sheet = sheet_of(game, events, 0)
    people = {p.user: Person(f"Player {p.seat + 1}") for p in game.players}
    reader = Reader("en", people=people)
    found, size = [], 0
    for _ in range(repeats):
        began = time.perf_counter()
        size = len(notebook_png(notebook_grid(reader, sheet, "Bench club")))
        found.append(time.perf_counter() - began)
    return found, size


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def player_range(key: str) -> tuple[int, int]:
    """How many players the format allows (its own range, no admin's settings)."""
    settings = Settings() if key == "forum" else Settings(format=key)
    return REGISTRY.specs[key].player_range(settings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--formats", default=",".join(FORMATS))
    add_count_option(parser)
    args = parser.parse_args()
    use_count(args.count)
    keys = args.formats.split(",")
    for key in keys:
        if key not in FORMATS:
            parser.error(f"--formats: no format {key!r} (one of {', '.join(FORMATS)})")
        low, high = player_range(key)
        if not low <= args.players <= high:
            parser.error(f"--players {args.players}: {key} is played by {low} to {high}")
    for key in keys:
        solving: list[float] = []
        reasoning: list[float] = []
        drawing: list[float] = []
        size = 0
        for seed in range(args.games):
            events, game = FORMATS[key](seed, args.players)
            odds, reasons = update_times(events, len(game.players))
            solving += odds
            reasoning += reasons
            times, size = picture_times(events, game, 5)
            drawing += times
        print(
            f"{key:8} {len(solving):5d} updates  odds p50 {_ms(solving, 0.5):6.1f} ms"
            f"  p95 {_ms(solving, 0.95):6.1f} ms  max {1000 * max(solving):7.1f} ms"
            f"  | picture p50 {_ms(drawing, 0.5):5.1f} ms  p95 {_ms(drawing, 0.95):5.1f} ms"
            f"  {size / 1000:.0f} KB"
        )
        print(
            f"         reasons p50 {_ms(reasoning, 0.5):6.1f} ms"
            f"  p95 {_ms(reasoning, 0.95):6.1f} ms  max {1000 * max(reasoning):7.1f} ms"
            f"  | odds mean {statistics.fmean(solving) * 1000:.1f} ms per update"
        )


if __name__ == "__main__":
    main()
