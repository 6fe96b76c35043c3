"""The bot's import contract, for its modules outside the edition-facing packages
(announce, render, handlers, editions): no private name crosses a module, no import inside
a function (but the entry point's and one for an optional client), no import circle among
the bot's modules, and none over 400 lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
OTHERS = ("bot.announce", "bot.render", "bot.handlers", "bot.editions")
# python-telegram-bot's own private calls, on purpose: its Message parse of every answer
# was a seventh of the event loop's time (bot/delivery/raw.py), and getUpdates unparsed
# (bot/intake.py). No name of ours is in here.
THIRD_PARTY = {("bot.delivery.raw", "_post"), ("bot.delivery.raw", "_merge_api_rl_kwargs")}
THIRD_PARTY |= {("bot.intake", "_post"), ("bot.shutdown", "_exit")}  # os._exit is public
# The console script imports what each command runs (start-up); redis only when set.
LATE = {"bot.cli", "bot.delivery.limiters"}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


ALL = {_module(path): path for path in sorted(BOT.rglob("*.py"))}
OURS = {
    name: path
    for name, path in ALL.items()
    if not any(name == p or name.startswith(p + ".") for p in OTHERS)
}


def _tree(name: str) -> ast.Module:
    return ast.parse(ALL[name].read_text(encoding="utf-8"))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_private_name_is_imported_from_another_module() -> None:
    found = [
        f"{name}:{node.lineno} {node.module}.{alias.name}"
        for name in OURS
        for node in ast.walk(_tree(name))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if _private(alias.name)
    ]
    assert found == []


def test_no_private_attribute_of_another_object_is_used() -> None:
    found = [
        f"{name}:{node.lineno} .{node.attr}"
        for name in OURS
        for node in ast.walk(_tree(name))
        if isinstance(node, ast.Attribute)
        and _private(node.attr)
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        and (name, node.attr) not in THIRD_PARTY
    ]
    assert found == []


def test_no_module_imports_inside_a_function() -> None:
    late: list[str] = []
    for name in OURS:
        if name in LATE:
            continue
        tree = _tree(name)
        top = {id(node) for node in tree.body}
        for statement in tree.body:  # `if TYPE_CHECKING:` blocks count as the top
            if isinstance(statement, ast.If):
                top.update(id(inner) for inner in statement.body)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top:
                late.append(f"{name}:{node.lineno}")
    assert late == []


def _imported(name: str) -> set[str]:
    """The bot modules a module imports at its top level (TYPE_CHECKING imports left out)."""
    found: set[str] = set()
    for node in _tree(name).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                found.add(inner if inner in ALL else node.module)
    return {module for module in found if module in ALL and module != name}


def test_bot_modules_import_each_other_without_a_circle() -> None:
    graph = {name: _imported(name) for name in ALL}
    done: set[str] = set()
    path: list[str] = []

    def visit(name: str) -> None:
        if name in path:
            raise AssertionError("import circle: " + " -> ".join([*path, name]))
        if name in done:
            return
        path.append(name)
        for target in sorted(graph.get(name, ())):
            visit(target)
        path.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)


def test_no_module_is_over_400_lines() -> None:
    long = {
        name: lines
        for name, path in OURS.items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 400
    }
    assert long == {}
