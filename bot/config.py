"""Bot settings from the environment and a `.env` file (pydantic-settings)."""

from __future__ import annotations

import re

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.delivery.limiter import Limits

TOKEN_PATTERN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{1,100}$")
TOKEN_HELP = (
    "WHODUNIT_BOT_TOKEN is {problem}. Get a token from @BotFather in Telegram "
    "(send /newbot there) and set it in the environment or in .env: "
    "WHODUNIT_BOT_TOKEN=123456:ABC..."
)


class TokenError(ValueError):
    """The bot token is missing or malformed; the message says how to get one."""


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

    @field_validator("default_language")
    @classmethod
    def _language(cls, value: str) -> str:
        from locales import supported

        return supported(value)

    def require_token(self) -> str:
        """The token, or a TokenError that explains how to get one."""
        token = self.bot_token.strip()
        if not token:
            raise TokenError(TOKEN_HELP.format(problem="not set"))
        if not TOKEN_PATTERN.match(token):
            raise TokenError(TOKEN_HELP.format(problem="malformed (expected digits:letters)"))
        return token

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
