"""Bot settings from the environment and a `.env` file (pydantic-settings)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.delivery.limiter import Limits
from locales import supported

TOKEN_PATTERN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{1,100}$")
TOKEN_HELP = (
    "WHODUNIT_BOT_TOKEN is {problem}. Get a token from @BotFather in Telegram "
    "(send /newbot there) and set it in the environment or in .env: "
    "WHODUNIT_BOT_TOKEN=123456:ABC..."
)


SECRET_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
DEFAULT_HTTP_PORT = 8080


class TokenError(ValueError):
    """The bot token is missing or malformed; the message says how to get one."""


class WebhookError(ValueError):
    """The webhook settings do not fit together; the message says what to set."""


class BotConfig(BaseSettings):
    """Everything an operator sets; all names start with WHODUNIT_."""

    model_config = SettingsConfigDict(env_prefix="WHODUNIT_", env_file=".env", extra="ignore")

    bot_token: str = ""
    database_url: str | None = None
    telegram_api_url: str = "https://api.telegram.org/bot"
    log_level: str = "INFO"
    log_format: str = Field(default="text", pattern="^(text|json)$")  # json: one object a line
    default_language: str = "en"
    sweep_seconds: float = Field(default=5.0, gt=0)
    group_messages_per_minute: int = Field(default=20, ge=1)
    # The window group_messages_per_minute counts in: 60 s (shorter only in tests).
    group_window_seconds: float = Field(default=60.0, gt=0)
    private_messages_per_second: int = Field(default=1, ge=1)
    messages_per_second: int = Field(default=30, ge=1)
    concurrent_updates: int = Field(default=64, ge=1)
    # Connections to the Bot API at most (besides the one for getUpdates).
    api_connections: int = Field(default=32, ge=4)
    admin_cache_seconds: float = Field(default=300.0, ge=0)
    flood_group_limit: int = Field(default=5, ge=1)
    flood_private_limit: int = Field(default=30, ge=1)
    flood_window_seconds: float = Field(default=20.0, gt=0)
    flood_group_sustained_limit: int = Field(default=20, ge=1)
    flood_long_window_seconds: float = Field(default=600.0, gt=0)
    flood_cooldown_seconds: float = Field(default=300.0, ge=0)
    refusal_edit_seconds: float = Field(default=120.0, ge=0)
    send_timeout_seconds: float = Field(default=30.0, gt=0)
    outbox_keep_days: float = Field(default=7.0, gt=0)
    # Several workers share Telegram's per-bot limits: through Redis when this is set, else
    # through PostgreSQL when that is the database (shared_limiter false: per process).
    redis_url: str | None = None
    shared_limiter: bool | None = None
    # SIGTERM: stop taking updates, finish those in flight, flush or release, exit 0 in time.
    shutdown_seconds: float = Field(default=25.0, gt=0)
    # False: a worker that only sends owed messages and fires deadlines (takes no updates).
    receive_updates: bool = True
    # Webhook mode (set webhook_url) and the bot's own HTTP server (health, metrics).
    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_path: str | None = None
    webhook_max_connections: int = Field(default=40, ge=1, le=100)
    http_host: str = "0.0.0.0"
    # The notebook Mini App (webhook mode with an https URL): how long its sign-in holds.
    notebook_app_max_age_seconds: float = Field(default=86400.0, gt=0)
    # Unset: 8080 in webhook mode, no HTTP server in polling mode.
    http_port: int | None = Field(default=None, ge=0, le=65535)

    @field_validator("default_language")
    @classmethod
    def _language(cls, value: str) -> str:
        return supported(value)

    def require_token(self) -> str:
        """The token, or a TokenError that explains how to get one."""
        token = self.bot_token.strip()
        if not token:
            raise TokenError(TOKEN_HELP.format(problem="not set"))
        if not TOKEN_PATTERN.match(token):
            raise TokenError(TOKEN_HELP.format(problem="malformed (expected digits:letters)"))
        return token

    @property
    def webhook_mode(self) -> bool:
        """A webhook URL is set: Telegram posts updates to this process."""
        return bool((self.webhook_url or "").strip())

    def require_webhook(self) -> None:
        """In webhook mode, a WebhookError unless URL and secret are usable."""
        if not self.webhook_mode:
            return
        url = urlsplit((self.webhook_url or "").strip())
        if url.scheme not in ("https", "http") or not url.hostname:
            raise WebhookError(
                "WHODUNIT_WEBHOOK_URL must be the public https URL Telegram posts to, "
                "e.g. https://bot.example.org/telegram"
            )
        secret = self.webhook_secret or ""
        if not secret:
            problem = "not set"
        elif not SECRET_PATTERN.match(secret):
            problem = "malformed (1 to 256 characters of A-Z, a-z, 0-9, _ and -)"
        else:
            return
        raise WebhookError(
            f"WHODUNIT_WEBHOOK_SECRET is {problem}. Webhook mode needs a secret token that "
            "Telegram sends with every update, e.g. WHODUNIT_WEBHOOK_SECRET=$(openssl rand "
            "-hex 32)"
        )

    @property
    def notebook_app_url(self) -> str | None:
        """The notebook Mini App's page on the webhook's https host (None: not served)."""
        url = urlsplit((self.webhook_url or "").strip())
        if url.scheme != "https" or not url.hostname:
            return None
        host = url.netloc.rpartition("@")[2]  # never credentials in a button's link
        return f"https://{host}/notebook/"

    @property
    def listen_port(self) -> int | None:
        """The port of the bot's HTTP server (None: no server)."""
        if self.http_port is not None:
            return self.http_port
        return DEFAULT_HTTP_PORT if self.webhook_mode else None

    @property
    def webhook_route(self) -> str:
        """The path the webhook is served at: webhook_path, else the URL's own path."""
        path = self.webhook_path or urlsplit((self.webhook_url or "").strip()).path or "/"
        return path if path.startswith("/") else "/" + path

    def limits(self) -> Limits:
        """Telegram's limits as the outbound limiter counts them."""
        return Limits(
            group_count=self.group_messages_per_minute,
            group_window=self.group_window_seconds,
            private_count=self.private_messages_per_second,
            overall_count=self.messages_per_second,
        )

    @property
    def api_base_url(self) -> str:
        """The Bot API base URL PTB expects (ends with "/bot")."""
        url = self.telegram_api_url.rstrip("/")
        return url if url.endswith("/bot") else url + "/bot"
