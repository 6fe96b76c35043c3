"""The bot's own HTTP server: Telegram's webhook, health checks and Prometheus metrics, and in
webhook mode the notebook Mini App.

`server` builds the aiohttp application and runs it; `webhook` receives updates;
`health` answers liveness, readiness and metrics; `serve` runs the bot in webhook mode
(and polling mode with the HTTP server beside it); `notebook_app` serves the notebook Mini
App (its page in `static/`), `notebook_words` puts a notebook in the player's words for it,
and `init_data` checks the sign-in Telegram gives it.
"""
