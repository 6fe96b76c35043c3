"""Telegram update handlers: thin — read the update, build a command, run it, answer errors."""
