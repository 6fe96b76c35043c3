"""The figures of one phase of `bench.service`, and of several turns of it pooled."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


@dataclass
class Figures:
    label: str
    updates: int
    seconds: float
    latencies: list[float]
    cpu: float
    fake_cpu: float = 0.0
    driver_cpu: float = 0.0
    transactions: float | None = None
    pg_commits: float | None = None
    worker_cpus: list[float] = field(default_factory=list)  # when more than one process
    proxy_cpu: float | None = None
    db_cpu: float | None = None  # PostgreSQL's server processes
    machine: float = 0.0  # share of all cores the whole machine was busy (every process)
    turn_rates: list[float] = field(default_factory=list)  # pooled: each turn's updates/s
    turn_cpus: list[float] = field(default_factory=list)  # pooled: each turn's ms of CPU/upd

    @property
    def rate(self) -> float:
        return self.updates / self.seconds

    def line(self, echo: Figures | None) -> str:
        ms = [1000 * x for x in self.latencies]
        cpu = 1000 * self.cpu / self.updates
        tx = "" if self.transactions is None else f"  tx/upd {self.transactions:5.1f}"
        pg = "" if self.pg_commits is None else f" (pg xact_commit {self.pg_commits:5.1f})"
        ratio = f"  game/echo {self.rate / echo.rate:6.3f}" if echo else ""
        return (
            f"  {self.label:<34} {self.rate:7.1f} upd/s  p50/p95/p99 {pct(ms, 0.5):7.0f}"
            f" {pct(ms, 0.95):7.0f} {pct(ms, 0.99):7.0f} ms  CPU {cpu:6.1f}"
            f" ms/upd ({100 * self.cpu / self.seconds:4.0f}% core; fake"
            f" {100 * self.fake_cpu / self.seconds:3.0f}%, driver"
            f" {100 * self.driver_cpu / self.seconds:3.0f}%){tx}{pg}{ratio}\n{self._processes()}"
        )

    def _processes(self) -> str:
        """The second line: each worker's and the proxy's share of a core (webhook modes),
        PostgreSQL's, and the whole machine's."""
        parts = []
        if self.proxy_cpu is not None:
            shares = "+".join(f"{100 * c / self.seconds:.0f}%" for c in self.worker_cpus)
            parts += [f"workers {shares}", f"proxy {100 * self.proxy_cpu / self.seconds:.0f}%"]
        if self.db_cpu is not None:
            parts.append(f"postgres {100 * self.db_cpu / self.seconds:.0f}%")
        cores = os.cpu_count() or 1
        parts.append(f"machine {100 * cores * self.machine:.0f}/{100 * cores}%")
        turns = ""
        if len(self.turn_rates) > 1:
            turns = f"; turns {' '.join(f'{r:.1f}' for r in self.turn_rates)} upd/s"
            turns += f" at {' '.join(f'{c:.1f}' for c in self.turn_cpus)} ms CPU/upd"
        return f"    (busy: {', '.join(parts)}{turns})"


def pooled(turns: list[Figures]) -> Figures:
    """The turns of one phase as one: every update, latency and second counted together."""
    first = turns[0]
    n = sum(f.updates for f in turns)
    seconds = sum(f.seconds for f in turns)

    def weighted(values: list[float | None]) -> float | None:
        if any(v is None for v in values):
            return None
        known = [v for v in values if v is not None]
        return sum(v * f.updates for v, f in zip(known, turns, strict=True)) / n

    figures = Figures(
        first.label,
        n,
        seconds,
        [x for f in turns for x in f.latencies],
        sum(f.cpu for f in turns),
        sum(f.fake_cpu for f in turns),
        sum(f.driver_cpu for f in turns),
        weighted([f.transactions for f in turns]),
        weighted([f.pg_commits for f in turns]),
        [sum(c) for c in zip(*(f.worker_cpus for f in turns), strict=True)],
        None if first.proxy_cpu is None else sum(f.proxy_cpu or 0.0 for f in turns),
        None if first.db_cpu is None else sum(f.db_cpu or 0.0 for f in turns),
        sum(f.machine * f.seconds for f in turns) / seconds,
    )
    figures.turn_rates = [f.rate for f in turns]
    figures.turn_cpus = [1000 * f.cpu / f.updates for f in turns]
    return figures
