"""The bot's own HTTP server: Telegram's webhook, health checks and Prometheus metrics.

`server` builds the aiohttp application and runs it; `webhook` receives updates;
`health` answers liveness, readiness and metrics; `serve` runs the bot in webhook mode
(and polling mode with the HTTP server beside it).
"""
