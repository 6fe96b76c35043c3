"""`whodunit ratings`: the operator's look at the stored ratings. `--recompute` folds
every ended game again from its log (storage.ratings) and stores the result wherever the
table differs; without it, the same fold only tells whether anything would change. The
achievements and the tallies behind them are folded again too (storage.achievements); a
recompute stores them without telling anyone."""

from __future__ import annotations

import asyncio

from storage.service import Store


async def _ratings(url: str | None, recompute: bool) -> int:
    store = await Store.open(url)
    try:
        if recompute:
            done = await store.ratings.recompute()
            print(f"{done.games} games folded; {done.differed} stored ratings corrected")
            mended = await store.achievements.recompute()
            print(f"{mended} stored achievements and tallies corrected")
            return 0
        stored = await store.ratings.stored()
        computed = await store.ratings.computed()
        differed = sum(stored.get(k) != v for k, v in computed.items())
        differed += sum(k not in computed for k in stored)
        print(f"{len(stored)} stored ratings; {differed} differ from the games' logs")
        earned = await store.achievements.differ()
        print(f"{earned} stored achievements and tallies differ from the games' logs")
        return 1 if differed or earned else 0
    finally:
        await store.close()


def run_ratings_command(url: str | None, recompute: bool) -> int:
    """The exit status: 0, or 1 when a check (no --recompute) found ratings or achievements
    that differ."""
    return asyncio.run(_ratings(url, recompute))
