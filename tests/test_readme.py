"""The commands of the README and of the operators' and performance guides, run as written:
every fenced `sh` block is read, each command in it must be one this module knows how to
run cheaply, and each is run for real (or, where that would recurse or reach Telegram,
checked against what it runs). A command misspelled, a script moved or an option renamed
fails here."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import BotConfig
from bot.demo.options import FORMATS, LANGUAGES, MAX_PLAYERS, MIN_PLAYERS, Options
from locales import t

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ("README.md", "docs/operators.md", "docs/performance.md")
BIN = Path(sys.executable).parent  # the venv the suite runs in: the README's `.venv/bin`
VENV_BIN = ".venv/bin/"
BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)
ASSIGNMENT = re.compile(r"^([A-Z_][A-Z0-9_]*)=")
SUBSTITUTION = re.compile(r"\$\([^)]*\)")  # `$(openssl rand -hex 32)`: one word's value
# A short game in place of the default one: the forum format, three players, a quick seed.
SHORT_DEMO = ("--format", "forum", "--players", "3", "--seed", "6", "--speed", "0")
TIMEOUT = 300


@dataclass(frozen=True)
class Command:
    """One command of a document: its environment assignments and its words."""

    document: str
    env: dict[str, str]
    argv: tuple[str, ...]

    @property
    def kind(self) -> str:
        """What this module runs it as ("" when it knows no way)."""
        program, *rest = self.argv
        if program in ("./scripts/run", "./scripts/test", "cp", "systemctl"):
            return program
        if program == VENV_BIN + "whodunit" and rest[:1] == ["demo"]:
            return "demo"
        if program == VENV_BIN + "pytest":
            return "pytest"
        if program == VENV_BIN + "python" and rest[:1] == ["-m"] and len(rest) > 1:
            return "bench" if rest[1].startswith("bench.") else ""
        if self.argv[:3] == ("docker", "compose", "-f"):
            return "compose"
        return ""

    def __str__(self) -> str:
        return f"{self.document}: {shlex.join(self.argv)}"


def commands_of(document: str) -> list[Command]:
    """Every command of the document's `sh` blocks (continued lines joined, `&&` split)."""
    found = []
    for block in BLOCK.findall((ROOT / document).read_text()):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(SUBSTITUTION.sub("VALUE", line), comments=True)
            while words:
                part = words[: words.index("&&")] if "&&" in words else words
                words = words[len(part) + 1 :]
                env = {}
                while part and ASSIGNMENT.match(part[0]):
                    name, _, value = part.pop(0).partition("=")
                    env[name] = value
                found.append(Command(document, env, tuple(part)))
    return found


COMMANDS = [command for document in DOCUMENTS for command in commands_of(document)]


def of_kind(kind: str) -> list[Command]:
    return [command for command in COMMANDS if command.kind == kind]


def bare_env() -> dict[str, str]:
    """This environment without any of the bot's settings (no token above all)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("WHODUNIT_")}


def run(argv: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> str:
    """Run a program; its output (stdout and stderr), or fail with it."""
    done = subprocess.run(
        argv,
        cwd=cwd,
        env=bare_env() if env is None else env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"{shlex.join(argv)}: {done.returncode}\n{done.stderr}"
    return done.stdout + done.stderr


def installed(program: str) -> str:
    """A `.venv/bin/` program of a document as the suite's venv has it."""
    assert program.startswith(VENV_BIN), program
    path = BIN / program.removeprefix(VENV_BIN)
    assert path.exists(), f"{program}: not installed ({path})"
    return str(path)


def test_the_documents_have_the_commands_they_promise() -> None:
    readme = {command.kind for command in COMMANDS if command.document == "README.md"}
    assert {"./scripts/run", "./scripts/test", "demo", "pytest"} <= readme
    assert {"bench", "compose", "pytest"} <= {command.kind for command in COMMANDS}


@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_every_command_is_one_this_module_runs(command: Command) -> None:
    assert command.kind, f"{command}: add a way to run it to tests/test_readme.py"
    settings = {f"WHODUNIT_{name.upper()}" for name in BotConfig.model_fields}
    compose = (ROOT / "deploy/compose.yaml").read_text()
    for name in command.env:  # a setting the bot reads, or one the compose file passes on
        assert name in settings or "${" + name in compose, f"{command}: {name} is read nowhere"


def test_scripts_run_installs_into_the_venv_and_runs_the_bot() -> None:
    script = ROOT / "scripts/run"
    assert script.stat().st_mode & stat.S_IXUSR
    lines = script.read_text().splitlines()
    assert "python3 -m venv .venv" in lines
    assert ".venv/bin/pip install -q -e ." in lines
    assert lines[-1] == 'exec .venv/bin/whodunit run "$@"'


@pytest.mark.parametrize("command", of_kind("./scripts/run"), ids=str)
def test_the_bot_without_a_token_says_how_to_get_one(command: Command, tmp_path: Path) -> None:
    """What `./scripts/run` execs once installed, with the token unset (the README's is a
    placeholder that would reach Telegram), in a folder with no `.env`."""
    assert set(command.env) == {"WHODUNIT_BOT_TOKEN"}
    done = subprocess.run(
        [installed(VENV_BIN + "whodunit"), "run", *command.argv[1:]],
        cwd=tmp_path,
        env=bare_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode != 0
    assert "WHODUNIT_BOT_TOKEN is not set" in done.stderr
    assert "@BotFather" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_scripts_run_on_a_fresh_copy_installs_and_asks_for_a_token(tmp_path: Path) -> None:
    """`./scripts/run` itself, as a newcomer runs it: a copy of the project with no `.venv`
    (about 35 s here, from the local package index, the compile of the deal count included),
    no token."""
    copy = tmp_path / "whodunit"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in (
        "scripts",
        "engine",
        "storage",
        "bot",
        "locales",
        "simulation",
        "fakebot",
        "compiled",
    ):
        shutil.copytree(ROOT / folder, copy / folder, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, copy / name)
    env = {k: v for k, v in bare_env().items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(
        ["./scripts/run"], cwd=copy, env=env, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode != 0
    assert (copy / ".venv/bin/whodunit").exists(), done.stderr
    assert "whodunit: WHODUNIT_BOT_TOKEN is not set" in done.stderr


@pytest.mark.parametrize("command", of_kind("./scripts/test"), ids=str)
def test_ci_runs_the_test_command(command: Command) -> None:
    """`./scripts/test` cannot run inside the suite it runs: CI runs it (`.ci/run`)."""
    assert command.argv == ("./scripts/test",)
    for path in (ROOT / "scripts/test", ROOT / ".ci/run"):
        assert path.stat().st_mode & stat.S_IXUSR, path
        run(["bash", "-n", str(path)])
    assert (ROOT / ".ci/run").read_text().splitlines()[-1] == 'exec ./scripts/test "$@"'
    script = (ROOT / "scripts/test").read_text().splitlines()
    assert any(line.startswith(".venv/bin/pytest") and '"$@"' in line for line in script)
    assert any(line.startswith(".venv/bin/mypy --strict") for line in script)
    assert script[-1] == 'exit "$tests"'  # the tests' verdict, once the type check passed


@pytest.mark.parametrize(("typed", "tested"), [(0, 0), (1, 0), (0, 2), (1, 2)])
def test_the_test_command_fails_when_the_type_check_or_the_tests_fail(
    tmp_path: Path, typed: int, tested: int
) -> None:
    """The type check runs beside the tests; either failing fails the command."""
    script = (ROOT / "scripts/test").read_text()
    (tmp_path / "checks").write_text("set -euo pipefail\n" + script[script.index("types=") :])
    bin_dir = tmp_path / ".venv/bin"
    bin_dir.mkdir(parents=True)
    for tool, code in (("mypy", typed), ("pytest", tested)):
        (bin_dir / tool).write_text(f"#!/bin/sh\necho {tool} ran\nexit {code}\n")
        (bin_dir / tool).chmod(0o755)
    done = subprocess.run(["bash", "checks"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == (typed or tested)
    assert "mypy ran" in done.stdout and "pytest ran" in done.stdout


@pytest.mark.parametrize("command", of_kind("pytest"), ids=str)
def test_the_pytest_commands_select_tests(command: Command) -> None:
    """Collected only (running them here would run the suite inside itself); with no path
    given, from this module alone."""
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    registered = {line.split(":")[0] for line in markers["ini_options"]["markers"]}
    for word, expression in zip(command.argv, command.argv[1:], strict=False):
        named = set(re.findall(r"\w+", expression)) - {"and", "or", "not"}
        assert word != "-m" or named <= registered, f"{command}: no marker {named - registered}"
    paths = [word for word in command.argv[1:] if word.startswith("tests/")]
    for path in paths:
        assert (ROOT / path).exists(), f"{command}: no {path}"
    argv = [installed(command.argv[0]), *command.argv[1:], "--collect-only", "-q", "-n", "0"]
    out = run([*argv, "-p", "no:cacheprovider", *([] if paths else [__file__])])
    assert re.search(r"\d+ tests? collected|^\S+::\S+$", out, re.MULTILINE), out


def demo_options() -> str:
    """The README's words about the demo's options."""
    readme = (ROOT / "README.md").read_text()
    return readme[readme.index("## See a game first") : readme.index("## Your first game")]


def test_the_demo_options_are_the_commands() -> None:
    text = demo_options()
    assert f"`--format {'|'.join(FORMATS)}`" in text
    assert f"`--players {MIN_PLAYERS}..{MAX_PLAYERS}`" in text
    assert f"`--language {'|'.join(LANGUAGES)}`" in text
    help_text = run([installed(VENV_BIN + "whodunit"), "demo", "--help"])
    for option in sorted(set(re.findall(r"`(--[a-z-]+)", text))):
        assert option in help_text, f"README names {option}; `whodunit demo --help` does not"


@pytest.mark.parametrize("command", of_kind("demo"), ids=str)
def test_the_demo_commands_parse(command: Command, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every option and value as written, read by the command line itself (the game is
    played by the slow test below)."""
    played: list[Options] = []

    def run_demo(options: Options) -> int:
        played.append(options)
        return 0

    monkeypatch.setattr("bot.demo.play.run_demo", run_demo)
    assert main(list(command.argv[1:])) == 0
    assert len(played) == 1


@pytest.mark.slow
@pytest.mark.parametrize("command", of_kind("demo"), ids=str)
def test_the_demo_plays_a_game_to_its_end(command: Command) -> None:
    """As written, then a short game's options after it (the last of an option counts): a
    misspelled option or value still fails (about 5 s a game here)."""
    assert not command.env
    language = "en"
    for word, after in zip(command.argv, command.argv[1:], strict=False):
        language = after if word == "--language" else language
    out = run([installed(command.argv[0]), *command.argv[1:], *SHORT_DEMO])
    assert "🏆" in out
    assert out.rstrip().endswith(t(language, "demo.over"))


@pytest.mark.parametrize("command", of_kind("bench"), ids=str)
def test_the_benchmarks_exist(command: Command) -> None:
    """Benchmarks take minutes: only their modules are looked up (as `-m` does)."""
    assert command.argv[3:] == (), f"{command}: options are not checked here"
    assert importlib.util.find_spec(command.argv[2]) is not None, command


@pytest.mark.parametrize("command", of_kind("compose") + of_kind("cp"), ids=str)
def test_the_deploy_files_exist(command: Command) -> None:
    files = [word for word in command.argv if word.startswith("deploy/")]
    assert files, command
    for name in files:
        assert (ROOT / name).is_file(), f"{command}: no {name}"


@pytest.mark.parametrize("command", of_kind("systemctl"), ids=str)
def test_the_unit_enabled_is_the_one_shipped(command: Command) -> None:
    assert (ROOT / "deploy" / f"{command.argv[-1]}.service").is_file(), command


LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize(
    "document", ["README.md", *sorted(p.name for p in (ROOT / "docs").glob("*.md"))]
)
def test_every_link_between_the_documents_leads_somewhere(document: str) -> None:
    path = ROOT / document if document == "README.md" else ROOT / "docs" / document
    for target in LINK.findall(path.read_text()):
        if target.startswith(("http://", "https://")):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{document}: {target} leads nowhere"
        assert not anchor or anchor in anchors(linked), f"{document}: no #{anchor} in {file}"
