"""Whole games at the pace people play, with Telegram's real limits: is the next prompt there
when a player looks for it, and how far behind is the group?

    python -m bench.tempo [--format all|forum|classic|liars|y2023] [--players N]
                          [--pace people|brisk|both] [--seed 1] [--games 1]

Each game is the demo's (bot/demo: the real bot against the in-repo fake Bot API), every
seat a computer detective, the bot's default settings (board pictures on) and Telegram's
limits as the bot keeps them (bot/delivery/limiter.py `Limits`: 20 posts and edits a minute
per group, 1 a second per private chat, 30 a second in all; the per-person flood limits stay
relaxed, as they count on the real clock). A person acts a random 3–8 s ("people") or
1–3 s ("brisk") after they could see what they act on: a button from the moment its message
first carried it, a typed command from the newest message of the chat it is typed in. Time
is the stage's clock (bot/demo/clock.py `LoopClock`): real time plus the time skipped while
nobody acts and the bot only waits, so the limiter, the deadlines and the people share it,
and a game of an hour takes seconds (bench/tempo_play.py).

Per game (bench/tempo_figures.py):
- **group calls per turn**: the bot's sendMessage, sendPhoto and edit* calls to the group
  (the fake's log, any answer), each counted to the turn of the event its outbox row was
  written for (a call the handler made itself: the turn in progress then); the mean and the
  max over turns. The start (before turn 1) and the end (the game's end post, the story)
  are counted apart. A forum "turn" is a suggestion.
- **turns/min**: turns from the first turn's start to the game's end, on the stage's clock
  (a forum game: suggestions a day).
- **next buttons**: for every press, from the moment its step was opened (the write of
  the outbox row whose message showed the button, or for an edit the presser's own press
  before it if later, as a waiting edit may carry a later write's content; for a message
  the handler edited itself, such as a composer's step, the press that made it) to the
  moment the button was shown: p50, p95, max. Every wait of a player for their next step
  counts, the first prompt of their turn too; the others' thinking does not.
- **group behind**: for each write (a command or a deadline) that sent a player a private
  message and changed the group (posted there, or came while an edit of the group waited,
  which it may have become part of), from the first of those private messages being sent
  to the moment the group had been sent every row written up to that write: p50, p95.
  E.g. the suggester's "Bob showed you the Rope" and the group's "Bob showed a card"; a
  Liars card read in private and its post. Negative: the group was first.
- **toast**: from a press to the bot's answer to it.
- Liars: how long the Liar! window was still open when the card's post had been shown
  (negative: closed before). Table: turns the turn's clock ended. Forum: the group posts
  (and edits) each day's end wrote.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator

from bench.tempo_figures import Figures, figures, percentile
from bench.tempo_play import PACES, Spec, play
from bot.demo.options import FORMATS

TABLE_PLAYERS, FORUM_PLAYERS = 6, 4
TARGETS = (
    "targets (issue 38): group calls per turn ≤ 4 on average; next buttons p95 ≤ 2 s and"
    " max ≤ 5 s at both paces; the group p95 ≤ 5 s behind at the people's pace;"
    " a forum day's end ≤ 2 group posts"
)


def specs(args: argparse.Namespace) -> Iterator[Spec]:
    """The games asked for, format by format, pace by pace."""
    formats = FORMATS if args.format == "all" else (args.format,)
    paces = tuple(PACES) if args.pace == "both" else (args.pace,)
    for key in formats:
        players = args.players or (FORUM_PLAYERS if key == "forum" else TABLE_PLAYERS)
        for pace in paces:
            for game in range(args.games):
                yield Spec(key, players, pace, args.seed + game)


def number(value: float, digits: int = 1) -> str:
    """`value` rounded to `digits` (never "-0.0"); "-" for none."""
    return "-" if math.isnan(value) else f"{round(value, digits) + 0.0:.{digits}f}"


def spread(values: list[float], *qs: float) -> str:
    return " / ".join(number(percentile(values, q)) for q in qs)


def rate(spec: Spec, found: Figures) -> str:
    """Turns a minute; a forum game's suggestions a day."""
    if spec.format == "forum":
        return f"{number(found.turns / found.days if found.days else math.nan)}/day"
    return f"{number(found.per_minute, 2)}/min"


def report(spec: Spec, found: Figures, wall: float) -> list[str]:
    """The lines printed for one game."""
    low, high = PACES[spec.pace]
    unit = "suggestions" if spec.format == "forum" else "turns"
    ended = "ended" if found.ended else "NOT ENDED"
    days = f", {found.days} days" if spec.format == "forum" else ""
    lines = [
        f"{spec.format} · {spec.players} players · {spec.pace} ({low:g}–{high:g} s) · "
        f"seed {spec.seed}: {found.turns} {unit} in {number(found.minutes)} min{days} "
        f"({rate(spec, found)}), {ended}; {wall:.0f} s of real time",
        f"  group calls per turn      mean {number(found.mean_per_turn)}, max "
        f"{max(found.per_turn, default=0)} (all {found.group_calls}: "
        f"start {found.before_first}, end {found.after_end})          target: mean ≤ 4",
        f"  next buttons (s)          p50 / p95 / max  {spread(found.buttons, 50, 95, 100)}"
        f"  ({len(found.buttons)} presses)   target: p95 ≤ 2, max ≤ 5",
        f"  group behind private (s)  p50 / p95        {spread(found.behind, 50, 95)}"
        f"  ({len(found.behind)} writes)   target: p95 ≤ 5 at the people's pace",
        f"  toast (s)                 p50 / p95 / max  {spread(found.toasts, 50, 95, 100)}",
    ]
    if spec.format == "forum":
        posts = [p for p, _ in found.day_ends]
        edits = [e for _, e in found.day_ends]
        lines.append(
            f"  day's end                 group posts {posts}, edits {edits}   target: ≤ 2 posts"
        )
    else:
        lines.append(f"  turns the clock ended     {found.timed_out}")
    if found.stalls:
        lines.append(
            f"  CHECK: {len(found.stalls)} messages went later than the limits let them "
            f"(by up to {max(found.stalls):.1f} s): the stage or the sender idled"
        )
    if found.liar_windows:
        closed = sum(w <= 0 for w in found.liar_windows)
        lines.append(
            f"  Liar! window left when the card showed (s)  min / p50 "
            f"{spread(found.liar_windows, 0.001, 50)}; closed before: {closed} of "
            f"{len(found.liar_windows)}"
        )
    return lines


def summary(rows: list[tuple[Spec, Figures]]) -> list[str]:
    """One line per game: the figures beside their targets."""
    head = (
        f"{'format':8} {'n':>2} {'pace':6} {'turns':>5} {'rate':>8} {'calls/turn':>10} "
        f"{'max':>4} {'buttons p50/p95/max':>20} {'behind p50/p95':>15} {'day end posts':>13}"
    )
    lines = [head, "-" * len(head)]
    for spec, found in rows:
        posts = max((p for p, _ in found.day_ends), default=0) if spec.format == "forum" else ""
        lines.append(
            f"{spec.format:8} {spec.players:>2} {spec.pace:6} {found.turns:>5} "
            f"{rate(spec, found):>8} {number(found.mean_per_turn):>10} "
            f"{max(found.per_turn, default=0):>4} "
            f"{spread(found.buttons, 50, 95, 100):>20} {spread(found.behind, 50, 95):>15} "
            f"{posts!s:>13}"
        )
    lines.append(
        "target   " + " " * 26 + f"{'≤ 4':>10} {'':>4} {'-/2/5':>20} {'-/5':>15} {'≤ 2':>13}"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=("all", *FORMATS), default="all")
    parser.add_argument("--players", type=int, default=0, help="6 at the table, 4 in a forum")
    parser.add_argument("--pace", choices=(*PACES, "both"), default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1, help="games per format and pace")
    args = parser.parse_args()
    print(TARGETS, flush=True)
    done = []
    for spec in specs(args):
        played = play(spec)
        found = figures(played)
        print("", *report(spec, found, played.wall), sep="\n", flush=True)
        done.append((spec, found))
    print("", *summary(done), sep="\n")


if __name__ == "__main__":
    main()
