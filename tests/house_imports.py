"""The project's import graph, read with `ast`, and the circles in it.

`python -m tests.house_imports` prints every import circle among the project's modules
(exit status 1 when there is one). The house tests (tests/test_house.py) read the same
graph for the circle, function-level import and import-contract checks.

An edge A -> B is an import in A of project module B that runs: `import b`, `from b import
name`, and `from pkg import sub` when `sub` is a submodule (then the edge goes to `pkg.sub`,
else to `pkg`), at module level, inside a function (a lazy import that closes a circle is
still a circle, only a later one) or under `if TYPE_CHECKING:` (an import only for types
never runs, but modules that need each other's types still cannot be read, nor changed,
one without the other).

`package_graph` reads the same imports one level up, among a package's subpackages and
top-level modules, type-checking imports included: the house test wants no loop there.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The packages whose modules make the graph.
PACKAGES = ("engine", "storage", "bot", "simulation", "bench", "fakebot", "testbed", "compiled")


@dataclass(frozen=True)
class Import:
    """One import statement's target in a module."""

    source: str  # the importing module
    target: str  # the imported project module
    names: tuple[str, ...]  # the names taken by `from target import ...` (empty for `import`)
    line: int
    in_function: bool
    type_checking: bool


def module_name(path: Path, root: Path = ROOT) -> str:
    """`engine/table/setup.py` -> `engine.table.setup`; a package's `__init__.py` -> the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_paths(packages: tuple[str, ...] = PACKAGES, root: Path = ROOT) -> dict[str, Path]:
    """Every module of the packages, by dotted name."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            found[module_name(path, root)] = path
    return found


def _absolute(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name a (possibly relative) `from` import refers to."""
    if level == 0:
        return target or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(
    node: ast.AST, in_function: bool = False, type_checking: bool = False
) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    """Every import statement under `node`, with whether it is in a def / a TYPE_CHECKING block."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, in_function, type_checking
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _walk(child, True, type_checking)
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for statement in child.body:
                yield from _walk_one(statement, in_function, True)
            for statement in child.orelse:
                yield from _walk_one(statement, in_function, type_checking)
        else:
            yield from _walk(child, in_function, type_checking)


def _walk_one(
    node: ast.stmt, in_function: bool, type_checking: bool
) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node, in_function, type_checking
    else:
        yield from _walk(node, in_function, type_checking)


def _project_module(name: str, modules: dict[str, Path]) -> str | None:
    """The project module `name` refers to: itself, or the nearest enclosing package."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


@cache
def parsed(path: Path) -> ast.Module:
    """A source file's syntax tree, parsed once per process: the house checks all read the
    same files (treat it as read-only)."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a source file's tree (`ast.walk` order), listed once per process."""
    return tuple(ast.walk(parsed(path)))


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """The project modules imported by one module, each statement's target(s)."""
    tree = parsed(path)
    is_package = path.name == "__init__.py"
    found: list[Import] = []
    for node, in_function, type_checking in _walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _project_module(alias.name, modules)
                if target is not None:
                    found.append(
                        Import(module, target, (), node.lineno, in_function, type_checking)
                    )
            continue
        base = _absolute(module, is_package, node.level, node.module)
        package_target = _project_module(base, modules)
        if package_target is None:
            continue
        plain: list[str] = []
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            if submodule in modules:  # `from pkg import sub`: the submodule itself
                found.append(Import(module, submodule, (), node.lineno, in_function, type_checking))
            else:
                plain.append(alias.name)
        if plain:
            found.append(
                Import(
                    module, package_target, tuple(plain), node.lineno, in_function, type_checking
                )
            )
    return found


def all_imports(modules: dict[str, Path] | None = None) -> list[Import]:
    """Every import of a project module by a project module."""
    modules = module_paths() if modules is None else modules
    return [i for name, path in modules.items() for i in imports_of(name, path, modules)]


def graph(imports: list[Import]) -> dict[str, set[str]]:
    """Module -> the modules it imports (at run time or only for type checking)."""
    edges: dict[str, set[str]] = {}
    for imp in imports:
        edges.setdefault(imp.source, set())
        edges.setdefault(imp.target, set())
        if imp.target != imp.source:
            edges[imp.source].add(imp.target)
    return edges


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    for start in sorted(edges):
        if start in index:
            continue
        # Iterative depth-first search: (node, iterator over its successors).
        work: list[tuple[str, Iterator[str]]] = []
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(sorted(edges[start]))))
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(edges.get(succ, ())))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


def a_cycle(component: list[str], edges: dict[str, set[str]]) -> list[str]:
    """One concrete circle through the component's first module (a -> b -> ... -> a)."""
    members = set(component)
    start = component[0]
    # Breadth-first search for the shortest path back to start inside the component.
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for succ in sorted(edges[node] & members):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if succ not in previous:
                    previous[succ] = node
                    following.append(succ)
        frontier = following
    return component  # not reached: a component of two or more always has a cycle


def circles(imports: list[Import] | None = None) -> list[str]:
    """One line per import circle: the modules in it and one concrete path round it."""
    edges = graph(all_imports() if imports is None else imports)
    lines = []
    for component in strongly_connected(edges):
        path = " -> ".join(a_cycle(component, edges))
        lines.append(f"{len(component)} modules {{{', '.join(component)}}}: {path}")
    return lines


def package_of(module: str, root: str) -> str | None:
    """A module's node in `root`'s package graph: `root.x` for `root/x.py` and for anything
    under `root/x/`, `root` for its `__init__.py`; None outside `root`."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == root else None


def package_graph(imports: list[Import], root: str) -> dict[str, set[str]]:
    """Among `root`'s subpackages and top-level modules: A -> B when a module of A imports
    one of B, at module level, in a function or only for type checking (packages that need
    each other's types are still tied together)."""
    edges: dict[str, set[str]] = {}
    for imp in imports:
        source, target = package_of(imp.source, root), package_of(imp.target, root)
        if source is None or target is None:
            continue
        edges.setdefault(source, set())
        edges.setdefault(target, set())
        if source != target:
            edges[source].add(target)
    return edges


def loops(edges: dict[str, set[str]]) -> list[str]:
    """One line per loop (strongly connected nodes) in a graph, with one path round it."""
    return [
        f"{len(c)} nodes {{{', '.join(c)}}}: {' -> '.join(a_cycle(c, edges))}"
        for c in strongly_connected(edges)
    ]


def main() -> int:
    found = circles()
    for line in found:
        print(line)
    print(f"{len(found)} import circle(s) among {', '.join(PACKAGES)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
