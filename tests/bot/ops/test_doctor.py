"""`whodunit doctor` against the fake Bot API: a healthy set-up passes; a bad token, a
database that is down, a failing webhook, a game chat where the bot is no admin or was
removed are each printed with what to fix, and the exit code is 1."""

from __future__ import annotations

import asyncio
import io
import re
import time
from pathlib import Path
from typing import Any

from bot.config import BotConfig
from bot.doctor import doctor
from tests.support.harness import TOKEN, Party
from tests.support.processes import REPO_ROOT, bot_env, whodunit_command


class WebhookConfig(BotConfig):
    """The configuration of a bot in webhook mode (the setting the run path reads)."""

    webhook_url: str = ""


def config_of(table: Party, **changes: Any) -> BotConfig:
    chosen: dict[str, Any] = {
        "bot_token": TOKEN,
        "database_url": table.bot.config.database_url,
        "telegram_api_url": table.server.base_url,
        **changes,
    }
    return WebhookConfig(_env_file=None, **chosen)  # type: ignore[call-arg]


async def run_doctor(config: BotConfig, ahead: float = 0.0) -> tuple[int, str]:
    out = io.StringIO()
    code = await doctor(config, out, clock=lambda: time.time() + ahead)
    return code, out.getvalue()


def line(report: str, level: str, name: str) -> str:
    """The report's line of one check at one level (AssertionError when there is none)."""
    found = [x for x in report.splitlines() if x.split()[:2] == [level, name]]
    assert found, f"no {level} {name} in:\n{report}"
    return found[0]


async def test_a_healthy_bot_passes(table: Party) -> None:
    await table.bot.say(table.alice, table.group, "/newgame")
    code, report = await run_doctor(config_of(table))
    assert code == 0, report
    assert "@whodunit_bot (id 1000)" in line(report, "OK", "token")
    line(report, "OK", "clock")
    assert "polling (no webhook set), 0 updates waiting" in line(report, "OK", "webhook")
    assert "migrations current" in line(report, "OK", "database")
    chat = line(report, "OK", "chat")
    assert str(table.group.id) in chat and "'Cluedo club'" in chat and "(lobby)" in chat
    assert "FAIL" not in report and "0 failed" in report


async def test_a_bad_token_fails(table: Party) -> None:
    code, report = await run_doctor(config_of(table, bot_token="123:WRONG"))
    assert code == 1
    assert "401" in line(report, "FAIL", "token") or "Unauthorized" in report
    assert "@BotFather" in report
    assert "WRONG" not in report.replace("123:WRONG", "")  # nothing of the token leaks
    line(report, "OK", "database")  # the other checks still run


async def test_a_database_that_is_down_fails(table: Party) -> None:
    url = "postgresql://whodunit:secret@127.0.0.1:1/whodunit"
    code, report = await run_doctor(config_of(table, database_url=url))
    assert code == 1
    failed = line(report, "FAIL", "database")
    assert "unreachable" in failed and "secret" not in report
    assert "fix: start the database server" in report


async def test_a_missing_sqlite_file_fails(table: Party, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/nothing/here.db"
    code, report = await run_doctor(config_of(table, database_url=url))
    assert code == 1 and "no database file" in line(report, "FAIL", "database")
    assert not (tmp_path / "nothing").exists(), "the doctor creates nothing"


async def test_a_failing_webhook_fails(table: Party) -> None:
    hook = "https://bot.example.org/telegram"
    webhook = table.server.api.webhook
    webhook.url, webhook.max_connections = hook, 40
    webhook.last_error_date = int(time.time()) - 120
    webhook.last_error_message = "Connection refused"
    code, report = await run_doctor(config_of(table, webhook_url=hook))
    assert code == 1
    failed = line(report, "FAIL", "webhook")
    assert "Connection refused" in failed and f"webhook {hook}" in failed
    assert "reverse proxy" in report


async def test_a_webhook_left_behind_in_polling_mode_fails(table: Party) -> None:
    webhook = table.server.api.webhook
    webhook.url, webhook.max_connections = "https://old.example.org/hook", 40
    code, report = await run_doctor(config_of(table))
    assert code == 1
    assert "configured: polling" in line(report, "FAIL", "webhook")


async def test_a_game_chat_without_admin_rights_or_without_the_bot_fails(table: Party) -> None:
    server, alice, bob = table.server, table.alice, table.bob
    plain = server.add_group("Plain club", admins=[alice], members=[bob], bot_admin=False)
    gone = server.add_group("Gone club", admins=[alice], members=[bob], bot_admin=True)
    for group in (table.group, plain, gone):
        await table.bot.say(alice, group, "/newgame")
    gone.remove_bot(by=alice)
    await table.bot.settle()
    code, report = await run_doctor(config_of(table))
    assert code == 1
    chats = {x.split()[2]: x for x in report.splitlines() if x.split()[1:2] == ["chat"]}
    assert chats[str(table.group.id)].startswith("OK")
    assert chats[str(plain.id)].startswith("FAIL") and "not an admin" in chats[str(plain.id)]
    removed = chats[str(gone.id)]
    assert removed.startswith("FAIL") and ("kicked" in removed or "removed" in removed)
    assert "make the bot an admin" in report and "add the bot back" in report


async def test_a_clock_far_off_warns(table: Party) -> None:
    code, report = await run_doctor(config_of(table), ahead=95)
    assert code == 0, report  # a warning only
    # The Date header counts whole seconds: 95 s off reads as 95 or 96.
    assert re.search(r" 9[56] s ahead", line(report, "WARN", "clock")) and "NTP" in report


async def test_the_command_line_exit_codes(table: Party) -> None:
    env = bot_env(TOKEN, table.server.base_url, table.bot.config.database_url or "")
    healthy = await _doctor_process(env)
    assert healthy[0] == 0, healthy[1]
    broken = await _doctor_process({**env, "WHODUNIT_BOT_TOKEN": "123:WRONG"})
    assert broken[0] == 1 and "FAIL  token" in broken[1]


async def _doctor_process(env: dict[str, str]) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *whodunit_command(),
        "doctor",
        env=env,
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()
