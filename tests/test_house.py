"""House rules a reader can rely on (docs/design.md, issue 24), checked over the source with `ast`.

No module over 400 lines; no import circle (type-only imports too), bar the listed ones
still to remove; no loop among the bot's packages (bar the listed imports still to remove);
no function-level import of a project module without a comment saying why; the layers'
import contracts; nothing shipped imports the tests; no new state in module globals; few
`type: ignore`; no private name taken from another module; no `.table is None` outside the
formats' modules. Each test lists every violation it finds.
"""

from __future__ import annotations

import ast
import io
import os
import re
import subprocess
import sys
import tokenize
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import LONGEST
from tests.house_globals import KNOWN, module_state
from tests.house_imports import (
    PACKAGES,
    ROOT,
    Import,
    a_cycle,
    all_imports,
    circles,
    graph,
    loops,
    module_paths,
    nodes,
    package_graph,
    strongly_connected,
)

# The code that ships (and the benchmarks): the line limit, `type: ignore`, no import of
# the tests. The tests themselves are not sized (a scenario file may run long).
SHIPPED = (
    "engine",
    "storage",
    "bot",
    "simulation",
    "bench",
    "fakebot",
    "locales",
    "testbed",
    "compiled",
)
MAX_LINES = 400
SIZE_EXEMPT = ("storage/migrations",)  # Alembic's, generated and never edited
MAX_TYPE_IGNORES = 5

# The engine's editions, and the one module allowed to import them (the shipped formats
# and their registry).
EDITION_PACKAGES = ("engine.liars", "engine.y2023")
EDITION_REGISTRY = "engine.editions"
# The tables keyed by format that join the editions' own parts to the notebook and the
# detectives (the rules import neither): they import the edition packages too.
FORMAT_TABLES = (
    "engine.notebook.observers",
    "engine.detectives.plays",
    "engine.achievements.editions",
)
# The only importers of the shipped registry: the package's entry point and decide.
ENGINE_ENTRY_POINTS = ("engine", "engine.decide")
# The table core: what every table edition shares (the registry's class and its handlers
# included: any registry, of any formats, is built from them).
TABLE_CORE = (
    "engine.table",
    "engine.decide",
    "engine.evolve",
    "engine.registry",
    "engine.handlers",
)


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(f"{p}.") for p in packages)


@cache
def _imports() -> list[Import]:
    return all_imports(module_paths())


def _listing(title: str, lines: list[str]) -> str:
    return f"{title} ({len(lines)}):\n  " + "\n  ".join(lines)


# --- size ---------------------------------------------------------------------------------


def test_no_module_is_over_400_lines() -> None:
    too_long = []
    for package in SHIPPED:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(SIZE_EXEMPT):
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                too_long.append(f"{relative}: {lines}")
    assert not too_long, _listing(f"modules over {MAX_LINES} lines", too_long)


# --- import circles -----------------------------------------------------------------------


def test_the_import_graph_sees_the_project() -> None:
    imports = _imports()
    modules = {i.source for i in imports}
    assert {"engine.decide", "storage.service", "bot.app", "fakebot.server"} <= modules
    # `from engine import commands` is an edge to the submodule, not to the package.
    assert any(i.source == "engine.decide" and i.target == "engine.commands" for i in imports)


def test_the_circle_check_counts_lazy_imports_and_type_only_ones(tmp_path: Path) -> None:
    """On a made-up package: a -> b at module level and b -> a inside a function is a
    circle; c and d naming each other only under TYPE_CHECKING is one too; e importing f
    only for types, with no way back, is not."""
    package = tmp_path / "pkg"
    package.mkdir()
    files = {
        "__init__.py": "",
        "a.py": "from pkg import b\n",
        "b.py": "def later():\n    from pkg.a import thing\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.d import D\n",
        "d.py": "import typing\nif typing.TYPE_CHECKING:\n    from pkg import c\n",
        "e.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.f import F\n",
        "f.py": "from pkg import a\n",
    }
    for name, text in files.items():
        (package / name).write_text(text)
    found = circles(all_imports(module_paths(("pkg",), tmp_path)))
    assert found == [
        "2 modules {pkg.a, pkg.b}: pkg.a -> pkg.b -> pkg.a",
        "2 modules {pkg.c, pkg.d}: pkg.c -> pkg.d -> pkg.c",
    ]


# Circles still to remove, each with why it is there (the test fails for any other, and for
# one listed here that is gone: strike it). None left (issue 40).
CIRCLES_TO_REMOVE: dict[frozenset[str], str] = {}


def test_no_import_circle() -> None:
    edges = graph(_imports())
    components = strongly_connected(edges)
    found = [
        f"{len(c)} modules {{{', '.join(c)}}}: {' -> '.join(a_cycle(c, edges))}"
        for c in components
        if frozenset(c) not in CIRCLES_TO_REMOVE
    ]
    gone = sorted(
        ", ".join(sorted(c)) for c in set(CIRCLES_TO_REMOVE) - set(map(frozenset, components))
    )
    assert not gone, _listing("removed: strike from CIRCLES_TO_REMOVE", gone)
    assert not found, _listing("import circles (python -m tests.house_imports)", found)


# --- the bot's packages -------------------------------------------------------------------

# The bot's packages (and its top-level modules, each a node of its own) import one way,
# from the bottom up: `bot/payload.py` (what an outbox row carries) and the settings' texts;
# `render` (text, keyboards, pictures); `announce` (who is told what, a press's toast);
# `editions` (each format's planners, prompt, texts and board, and their registry);
# `notebook` and `directory`; `services`; `context`; `handlers` (an edition's own presses
# too) beside `delivery`; the flood gate, the application, `web` and `demo` on top.
# `announce` and `render` never ask for an edition (a plan carries the game's edition);
# `editions.planning` and `editions.messages` join the shared code with every edition's.
# Imports still to remove, each closing a loop (none left: issue 40).
PACKAGE_IMPORTS_TO_REMOVE: dict[tuple[str, str], str] = {}


def test_the_package_graph_counts_type_only_imports_and_nests_subpackages(tmp_path: Path) -> None:
    """On a made-up package: `a` and `b` tied through a sub-module of `b` and an import only
    for type checking are a loop; `c`, imported and importing nothing back, is none."""
    root = tmp_path / "pkg"
    for folder in (root / "a", root / "b" / "deep"):
        folder.mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a/__init__.py": "",
        "a/x.py": "from pkg.b.deep import y\nfrom pkg import c\n",
        "b/__init__.py": "",
        "b/deep/__init__.py": "",
        "b/deep/y.py": "import typing\nif typing.TYPE_CHECKING:\n    from pkg.a.x import X\n",
        "c.py": "",
    }
    for name, text in files.items():
        (root / name).write_text(text)
    edges = package_graph(all_imports(module_paths(("pkg",), tmp_path)), "pkg")
    assert edges == {"pkg.a": {"pkg.b", "pkg.c"}, "pkg.b": {"pkg.a"}, "pkg.c": set()}
    assert loops(edges) == ["2 nodes {pkg.a, pkg.b}: pkg.a -> pkg.b -> pkg.a"]


def test_no_loop_among_the_bots_packages() -> None:
    """Every loop among bot's subpackages and top-level modules, type-only imports too; the
    imports still to remove are left out, and each must still be there (else strike it)."""
    edges = package_graph(_imports(), "bot")
    gone = [f"{a} -> {b}" for a, b in PACKAGE_IMPORTS_TO_REMOVE if b not in edges.get(a, set())]
    for a, b in PACKAGE_IMPORTS_TO_REMOVE:
        edges.get(a, set()).discard(b)
    found = loops(edges)
    assert not gone, _listing("removed: strike from PACKAGE_IMPORTS_TO_REMOVE", gone)
    assert not found, _listing("loops among the bot's packages", found)


# --- function-level imports ---------------------------------------------------------------


def _comments(path: Path) -> dict[int, str]:
    """Line -> the comment on it."""
    found: dict[int, str] = {}
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found[token.start[0]] = token.string.lstrip("#").strip()
    return found


def _says_why(comment: str) -> bool:
    """A comment of a few words, not only a tool's directive (noqa, type: ignore)."""
    words = comment.split()
    return len(words) >= 2 and not comment.startswith(("noqa", "type:", "pragma"))


def _import_spans(path: Path) -> dict[int, int]:
    """First line -> last line of each import statement."""
    return {
        node.lineno: node.end_lineno or node.lineno
        for node in nodes(path)
        if isinstance(node, ast.Import | ast.ImportFrom)
    }


def _function_starts(path: Path) -> dict[int, int]:
    """Line of each import inside a function -> the line of the innermost enclosing def."""
    found: dict[int, int] = {}
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for function in sorted(
        (n for n in nodes(path) if isinstance(n, functions)), key=lambda n: n.lineno
    ):
        for node in ast.walk(function):
            if isinstance(node, ast.Import | ast.ImportFrom):
                found[node.lineno] = function.lineno  # inner defs come later and win
    return found


def _unexplained(paths: dict[str, Path], imports: list[Import]) -> list[str]:
    """Function-level imports with no comment saying why: on the import or the line above,
    or one earlier in the function that speaks of its imports (for all of them)."""
    unexplained = []
    comments = {name: _comments(path) for name, path in paths.items()}
    spans = {name: _import_spans(path) for name, path in paths.items()}
    starts = {name: _function_starts(path) for name, path in paths.items()}
    for imp in imports:
        if not imp.in_function:
            continue
        notes = comments[imp.source]
        last = spans[imp.source].get(imp.line, imp.line)
        lines = range(imp.line - 1, last + 1)  # the line above, and every line of the import
        start = starts[imp.source].get(imp.line, imp.line)
        for_all = any(
            "import" in notes.get(line, "") and _says_why(notes[line])
            for line in range(start, imp.line)
        )
        if not for_all and not any(_says_why(notes.get(line, "")) for line in lines):
            unexplained.append(f"{imp.source}:{imp.line} imports {imp.target} inside a function")
    return sorted(set(unexplained))


def test_the_function_level_check_wants_a_reason(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    files = {
        "__init__.py": "",
        "a.py": "",
        "bare.py": "def f():\n    from pkg import a\n",
        "noqa.py": "def f():\n    from pkg import a  # noqa: F401\n",
        "above.py": "def f():\n    # optional dependency\n    from pkg import a\n",
        "block.py": "def f():\n    # imports on use\n    x = 1\n    import pkg.a\n",
    }
    for name, text in files.items():
        (package / name).write_text(text)
    paths = module_paths(("pkg",), tmp_path)
    found = _unexplained(paths, all_imports(paths))
    assert found == [
        "pkg.bare:2 imports pkg.a inside a function",
        "pkg.noqa:2 imports pkg.a inside a function",
    ]


def test_function_level_imports_of_project_modules_say_why() -> None:
    paths = module_paths()
    found = _unexplained(paths, _imports())
    assert not found, _listing("function-level imports with no comment saying why", found)


# --- import contracts ---------------------------------------------------------------------


def _breaches(importers: tuple[str, ...], forbidden: tuple[str, ...]) -> list[Import]:
    return [i for i in _imports() if _within(i.source, importers) and _within(i.target, forbidden)]


def _lines(found: list[Import]) -> list[str]:
    return sorted({f"{i.source}:{i.line} imports {i.target}" for i in found})


def test_storage_never_imports_bot() -> None:
    found = _lines(_breaches(("storage",), ("bot",)))
    assert not found, _listing("storage importing bot", found)


def test_render_never_imports_storage() -> None:
    found = _lines(_breaches(("bot.render",), ("storage",)))
    assert not found, _listing("bot.render importing storage", found)


def test_the_table_core_never_imports_an_edition() -> None:
    found = _lines(_breaches(TABLE_CORE, EDITION_PACKAGES))
    assert not found, _listing("table core importing an edition package", found)


def test_only_the_edition_registry_imports_the_editions_in_the_engine() -> None:
    allowed = (*EDITION_PACKAGES, EDITION_REGISTRY, *FORMAT_TABLES)
    found = _lines(
        [i for i in _breaches(("engine",), EDITION_PACKAGES) if not _within(i.source, allowed)]
    )
    title = f"engine modules besides {EDITION_REGISTRY} and the format tables importing an edition"
    assert not found, _listing(title, found)


def test_the_edition_registry_is_imported_only_by_the_engine_entry_points() -> None:
    found = _lines(
        [
            i
            for i in _imports()
            if i.target == EDITION_REGISTRY and i.source not in ENGINE_ENTRY_POINTS
        ]
    )
    assert not found, _listing(f"{EDITION_REGISTRY} imported beside the entry points", found)


def test_the_engine_imports_only_at_the_top() -> None:
    """The pure engine has no lazy import at all, commented or not."""
    found = _lines([i for i in _imports() if _within(i.source, ("engine",)) and i.in_function])
    assert not found, _listing("engine imports inside a function", found)


def test_the_contract_checks_see_an_import() -> None:
    """The contract helper finds a known import, so an empty list above means something."""
    assert _breaches(("storage.service",), ("engine",))
    assert _breaches(("bot.render",), ("engine",))


# --- the tests stay out of what ships --------------------------------------------------


def _imports_of_tests(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Every `import tests...` / `from tests... import` (at any depth, type-only too)."""
    found = []
    for path in paths:
        for node in nodes(path):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            if any(name == "tests" or name.startswith("tests.") for name in names):
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return found


def test_the_tests_import_check_sees_one(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    files = {
        "a.py": "from tests.support.play import naming\n",
        "b.py": "def f():\n    import tests.support\n",
        "c.py": "from testbed import harness\nimport testsuite\n",
    }
    for name, text in files.items():
        (tmp_path / "pkg" / name).write_text(text)
    found = _imports_of_tests(sorted((tmp_path / "pkg").glob("*.py")), tmp_path)
    assert found == ["pkg/a.py:1", "pkg/b.py:2"]


def test_nothing_shipped_nor_the_benchmarks_import_the_tests() -> None:
    """What the benchmarks share with the tests lives in `testbed` or `simulation`."""
    paths = [path for package in SHIPPED for path in sorted((ROOT / package).rglob("*.py"))]
    found = _imports_of_tests(paths)
    assert not found, _listing("imports of `tests` outside the tests", found)


# --- module state -------------------------------------------------------------------------


def test_the_module_state_check_sees_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a made-up package: a dict, a list, a set and a changeable object are state; a
    tuple, a frozenset, a MappingProxyType, a frozen dataclass, a cached function and a
    name imported from elsewhere are not."""
    package = tmp_path / "housestate"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from dataclasses import dataclass\n"
        "from functools import cache\n"
        "from types import MappingProxyType\n"
        "TABLE = {}\nITEMS = []\nSEEN: set[int] = set()\n"
        "KINDS = (1, 2)\nWORDS = frozenset({'a'})\nFIXED = MappingProxyType({'a': 1})\n"
        "@dataclass(frozen=True)\nclass Point:\n    x: int\n"
        "class Box:\n    pass\n"
        "ORIGIN = Point(0)\nBOX = Box()\n"
        "@cache\ndef square(n: int) -> int:\n    return n * n\n"
    )
    (package / "b.py").write_text("from housestate.a import TABLE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert module_state(("housestate",), tmp_path) == [
        "housestate.a.TABLE: dict",
        "housestate.a.ITEMS: list",
        "housestate.a.SEEN: set",
        "housestate.a.BOX: Box",
    ]


@cache
def _module_state() -> list[str]:
    """The shipped modules' state, read in a process of its own (importing everything)."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.house_globals"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return [line.split(":")[0] for line in done.stdout.splitlines() if line]


def test_no_new_state_in_module_globals() -> None:
    """A registry, a cache or a flag in a module global is state hidden from its callers:
    pass it instead, or make the table read-only (MappingProxyType, frozenset, tuple).
    Today's are listed in tests/house_globals.py `KNOWN`, each with why."""
    found = [name for name in _module_state() if name not in KNOWN]
    assert not found, _listing(
        "module globals holding state (python -m tests.house_globals)", found
    )


def test_every_known_module_state_is_still_there() -> None:
    """An entry of `KNOWN` that is gone is taken out, so that the list only shrinks."""
    gone = sorted(set(KNOWN) - set(_module_state()))
    assert not gone, _listing("KNOWN module state that is gone (take it out)", gone)


# --- type: ignore -------------------------------------------------------------------------


def test_few_type_ignores_in_shipped_code() -> None:
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{number}"
        for package in SHIPPED
        for path in sorted((ROOT / package).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "type: ignore" in line
    ]
    assert len(found) <= MAX_TYPE_IGNORES, _listing(
        f"`type: ignore` over shipped code (at most {MAX_TYPE_IGNORES})", found
    )


# --- private names ------------------------------------------------------------------------


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _private_uses(source: str, path: Path, imports: list[Import], project: set[str]) -> list[str]:
    """`from x import _y` of another module, and `x._y` on a project module bound by import
    (`imports`: the module's own)."""
    found = [
        f"{source}:{i.line} imports {name} from {i.target}"
        for i in imports
        if i.target != source
        for name in i.names
        if _private(name)
    ]
    bound: dict[str, str] = {}  # local name -> the project module it is
    for node in nodes(path):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in project:
                    bound[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in project:
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in nodes(path):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
            and _private(node.attr)
            and bound[node.value.id] != source
        ):
            found.append(f"{source}:{node.lineno} uses {bound[node.value.id]}.{node.attr}")
    return found


def test_no_private_name_crosses_a_module() -> None:
    """Over the shipped code, the benchmarks and the tests themselves."""
    modules = module_paths((*PACKAGES, "tests"))
    by_source: dict[str, list[Import]] = {}
    for i in all_imports(modules):
        by_source.setdefault(i.source, []).append(i)
    project = set(modules)
    found = [
        line
        for name, path in modules.items()
        for line in _private_uses(name, path, by_source.get(name, []), project)
    ]
    assert not found, _listing("private names used across modules", sorted(set(found)))


# python-telegram-bot's own private calls, on purpose: its Message parse of every answer
# was a seventh of the event loop's time (bot/delivery/raw.py), and getUpdates unparsed
# (bot/intake.py); os._exit is public.
THIRD_PARTY_PRIVATE = {
    ("bot.delivery.raw", "_post"),
    ("bot.delivery.raw", "_merge_api_rl_kwargs"),
    ("bot.intake", "_post"),
    ("bot.shutdown", "_exit"),
}


def test_the_bot_uses_no_private_attribute_of_another_object() -> None:
    """Beyond modules: `thing._name` on anything but `self` / `cls` in the bot."""
    found = [
        f"{name}:{node.lineno} .{node.attr}"
        for name, path in module_paths(("bot",)).items()
        for node in nodes(path)
        if isinstance(node, ast.Attribute)
        and _private(node.attr)
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        and (name, node.attr) not in THIRD_PARTY_PRIVATE
    ]
    assert not found, _listing("private attributes of other objects in the bot", found)


# --- the format decides ---------------------------------------------------------------------

# The modules that ARE the formats (engine/format.py's `Format`, engine/forum.py, each table
# edition, the bot's presentations): only they ask whether a game has a table; the rest asks
# the game's format (`format_of(game)`), or the table core for a table game's table.
FORMAT_MODULES = (
    "engine.format",
    "engine.forum",
    "engine.table",
    "engine.liars",
    "engine.y2023",
    "bot.editions",
)
TABLE_CHECK = re.compile(r"\btable is (not )?None\b")


def _table_checks(source: str) -> list[int]:
    """The lines that test a table for None (`game.table is None`, `table is not None`)."""
    return [n for n, line in enumerate(source.splitlines(), 1) if TABLE_CHECK.search(line)]


def test_the_table_check_finder_sees_both_forms() -> None:
    source = "a = 1\nif game.table is None:\n    pass\nb = table is not None\nc = tables\n"
    assert _table_checks(source) == [2, 4]


def test_only_the_formats_ask_whether_a_game_has_a_table() -> None:
    found = [
        f"{name}:{line}"
        for name, path in module_paths(SHIPPED).items()
        if not _within(name, FORMAT_MODULES)
        for line in _table_checks(path.read_text(encoding="utf-8"))
    ]
    assert not found, _listing("`.table is None` outside the formats (ask format_of)", found)


# --- the test run itself ------------------------------------------------------------------


def test_the_modules_scheduled_first_exist() -> None:
    """scripts/test hands these out first (tests/conftest.py); a renamed one would silently
    lose its place."""
    missing = [name for name in LONGEST if not (ROOT / "tests" / name).is_file()]
    assert not missing, _listing("modules in tests/conftest.py LONGEST that do not exist", missing)


# --- the engine's tests mirror the engine -------------------------------------------------


def _off_the_mirror(tests: Path, engine: Path) -> list[str]:
    """Modules under `tests` in a folder that is not a package of `engine` (or not a test
    package itself), and top-level test modules named after a package of `engine`."""
    packages = {p.parent.name for p in engine.glob("*/__init__.py")}
    found = []
    for path in sorted(tests.rglob("*.py")):
        relative = path.relative_to(tests)
        folder = relative.parent
        words = relative.stem.split("_")
        if folder.parts and not (engine / folder / "__init__.py").is_file():
            found.append(f"{relative.as_posix()}: engine/{folder.as_posix()}/ is no package")
        elif not (path.parent / "__init__.py").is_file():
            found.append(f"{relative.as_posix()}: its folder has no __init__.py")
        elif not folder.parts and words[0] == "test" and words[1:] and words[1] in packages:
            found.append(f"{relative.as_posix()}: belongs in {words[1]}/")
    return found


def test_the_mirror_check_finds_a_stray_test(tmp_path: Path) -> None:
    """On a made-up tree: a test folder with no engine package, one with no __init__.py,
    and a top-level test named after a package are found; the mirrored ones are not."""
    tree = """engine/__init__.py engine/rules.py engine/liars/__init__.py engine/y2023/__init__.py
        tests/__init__.py tests/test_rules.py tests/test_liars_turns.py tests/liars/__init__.py
        tests/liars/test_liars_rules.py tests/liars/deep/test_deep.py tests/toy/__init__.py
        tests/toy/test_toy.py tests/y2023/test_rooms.py"""
    for name in tree.split():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert _off_the_mirror(tmp_path / "tests", tmp_path / "engine") == [
        "liars/deep/test_deep.py: engine/liars/deep/ is no package",
        "test_liars_turns.py: belongs in liars/",
        "toy/__init__.py: engine/toy/ is no package",
        "toy/test_toy.py: engine/toy/ is no package",
        "y2023/test_rooms.py: its folder has no __init__.py",
    ]


def test_the_engine_tests_mirror_the_engine_packages() -> None:
    """tests/engine/X/ tests engine/X/ (a package that exists); the top-level modules test
    engine's top-level modules."""
    found = _off_the_mirror(ROOT / "tests" / "engine", ROOT / "engine")
    assert not found, _listing("engine tests off the engine's mirror", found)
