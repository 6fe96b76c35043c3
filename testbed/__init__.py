"""The real bot on a test bed, for the tests and the benchmarks alike.

`harness`: the bot's Application in this event loop against the in-repo fake Bot API, on a
clock the caller moves. `processes`: the real `whodunit run` as a process (its command, its
environment, a free local port). `proxy`: the round-robin reverse proxy that stands in for
Caddy in front of several webhook workers. The bot never imports this package.
"""
