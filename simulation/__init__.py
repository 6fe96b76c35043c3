"""Games played by a program rather than people, for property tests and benchmarks.

`randomplay` drives the engine with random moves (pure, seeded); `crowd` starts many games
through storage whose deadlines fall due together. The bot never imports this package.
"""
