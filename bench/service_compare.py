"""The comparisons `bench.service` prints after the turns: this code against `--against`'s,
each configuration against the one with the fewest running games, PostgreSQL against SQLite,
and two webhook workers against one."""

from __future__ import annotations

from bench.service_figures import Figures, pct, pooled
from bench.service_turns import HEADINGS, Stage


def compare_trees(stages: list[Stage]) -> None:
    """This checkout against `--against`'s, in each configuration (same turns, pooled):
    updates per second, bot CPU per update, p50 and p99."""
    for theirs in (s for s in stages if s.against is not None):
        mine = next(
            s
            for s in stages
            if s.against is None
            and (s.backend, s.running, s.mode) == (theirs.backend, theirs.running, theirs.mode)
        )
        parts = []
        for label, turns in mine.turns.items():
            if label not in theirs.turns:
                continue  # a paced phase: each configuration is paced at its own rate
            a, b = pooled(turns), pooled(theirs.turns[label])
            rate = 100 * (a.rate / b.rate - 1)
            cpu = 100 * ((a.cpu / a.updates) / (b.cpu / b.updates) - 1)
            ms = [[1000 * x for x in f.latencies] for f in (a, b)]
            parts.append(
                f"{label.removeprefix('game, ')}: upd/s {a.rate:.1f} against {b.rate:.1f}"
                f" ({rate:+.0f}%), CPU/upd {1000 * a.cpu / a.updates:.2f} against"
                f" {1000 * b.cpu / b.updates:.2f} ms ({cpu:+.0f}%), p50 {pct(ms[0], 0.5):.0f}"
                f" against {pct(ms[1], 0.5):.0f} ms, p99 {pct(ms[0], 0.99):.0f} against"
                f" {pct(ms[1], 0.99):.0f} ms"
            )
        print(
            f"this code against {theirs.against}, {mine.backend}, {mine.running} running games"
            f"{HEADINGS[mine.mode]}:\n    " + "\n    ".join(parts),
            flush=True,
        )


def compare_running(backend: str, stages: list[Stage]) -> None:
    """Each configuration's updates per second and CPU per update against the one with the
    fewest running games in the same mode (pooled turns)."""
    for stage in stages:
        base = min((s for s in stages if s.mode == stage.mode), key=lambda s: s.running)
        if base is stage:
            continue
        parts = []
        for label, turns in stage.turns.items():
            if not label.endswith("at a time"):
                continue
            mine, theirs = pooled(turns), pooled(base.turns[label])
            per, base_per = mine.cpu / mine.updates, theirs.cpu / theirs.updates
            rate = 100 * (mine.rate / theirs.rate - 1)
            parts.append(
                f"{label.removeprefix('game, ')}: upd/s {rate:+.0f}%,"
                f" CPU/upd {100 * (per / base_per - 1):+.0f}%"
            )
        print(
            f"{backend}, {stage.running} against {base.running} running games"
            f"{HEADINGS[stage.mode]}: {'; '.join(parts)}",
            flush=True,
        )


def scaling(results: dict[tuple[str, int, str, int], Figures]) -> None:
    """The 2-worker/1-worker ratio of updates per second, wherever both were measured."""
    for (backend, running, mode, c), two in results.items():
        one = results.get((backend, running, "webhook1", c))
        if mode == "webhook2" and one is not None:
            print(
                f"2 workers / 1 worker, {backend}, {running} running, {c} at a time:"
                f" {two.rate / one.rate:5.2f} ({two.rate:.1f} / {one.rate:.1f} upd/s;"
                f" bot CPU {100 * two.cpu / two.seconds:.0f}% / {100 * one.cpu / one.seconds:.0f}%"
                " of a core)",
                flush=True,
            )


def compare_backends(stages: list[Stage]) -> None:
    """PostgreSQL against SQLite in each configuration both have (same turns, pooled):
    updates per second and p50."""
    for pg in (s for s in stages if s.backend == "postgresql"):
        same = (s for s in stages if s.backend == "sqlite" and s.running == pg.running)
        lite = next((s for s in same if s.mode == pg.mode), None)
        if lite is None:
            continue
        parts = []
        for label, turns in pg.turns.items():
            if label.endswith("at a time") and label in lite.turns:
                mine, theirs = pooled(turns), pooled(lite.turns[label])
                p50s = [pct([1000 * x for x in f.latencies], 0.5) for f in (mine, theirs)]
                faster = 100 * (mine.rate / theirs.rate - 1)
                parts.append(
                    f"{label.removeprefix('game, ')}: upd/s {faster:+.0f}%"
                    f" (p50 {p50s[0]:.0f} against {p50s[1]:.0f} ms)"
                )
        print(
            f"postgresql against sqlite, {pg.running} running games{HEADINGS[pg.mode]}: "
            + "; ".join(parts),
            flush=True,
        )
