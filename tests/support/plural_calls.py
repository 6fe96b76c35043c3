"""Every call of the translation function `locales.t` in the source, found with `ast`: the
catalog keys it may render and whether it gives them a `count`.

A key is read from a string literal, an f-string (its unknown parts match any text), a
conditional, a variable of the function, a module's dict of keys, a loop over literals,
or a parameter of a wrapper (`inflected("suggestion.made")`, `Scene.label(key, **values)`),
read at each call of the wrapper. A `count` is given by name, in a `**{...}` literal, or
through a wrapper's `**values` at the wrapper's call. What cannot be read is reported.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "engine", "storage", "locales", "simulation", "bench", "fakebot", "scripts")
ANY = ".*"  # an f-string's part that cannot be read
DEPTH = 4  # wrappers of wrappers followed at most this deep

READ: set[ast.Constant] = set()  # the literals read as keys of `t` calls

Scope = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(frozen=True)
class Module:
    path: str
    tree: ast.Module
    parents: dict[ast.AST, ast.AST]

    def where(self, node: ast.AST) -> str:
        return f"{self.path}:{getattr(node, 'lineno', 0)}"

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        while node in self.parents:
            node = self.parents[node]
            yield node

    def scopes(self, node: ast.AST) -> Iterator[Scope]:
        """The functions around `node`, innermost first."""
        return (x for x in self.ancestors(node) if isinstance(x, Scope))


@dataclass(frozen=True)
class Site:
    """One key a call may render: where the call is, the key's pattern, and whether a count
    is given ("yes", "no", or why it cannot be told)."""

    where: str
    pattern: str
    count: str
    number: ast.expr | None  # what `count` is given, when given by name
    module: Module
    call: ast.Call  # the call that gives the count (the t call's, or its wrapper's)


Unread = tuple[str, str]  # where a `t` call is, and its key's expression, not read


@cache
def modules() -> tuple[Module, ...]:
    found = []
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            parents = {
                child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)
            }
            found.append(Module(path.relative_to(ROOT).as_posix(), tree, parents))
    return tuple(found)


def callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


@cache
def _calls() -> dict[str, list[tuple[Module, ast.Call]]]:
    """Every call in the source, by the name called (one walk of each module)."""
    found: dict[str, list[tuple[Module, ast.Call]]] = {}
    for module in modules():
        for node in module.parents:
            if isinstance(node, ast.Call) and (name := callee(node)) is not None:
                found.setdefault(name, []).append((module, node))
    return found


def calls_of(name: str) -> list[tuple[Module, ast.Call]]:
    return _calls().get(name, [])


def translations() -> Iterator[tuple[Module, ast.Call]]:
    """Every `t(language, key, ...)`."""
    for module, call in calls_of("t"):
        if len(call.args) >= 2:
            yield module, call


# --- keys --------------------------------------------------------------------------------

Origin = tuple[Module, ast.Call]  # the call a key came from (a wrapper's, or the t call)


def keys_of(
    module: Module, node: ast.expr, origin: Origin, depth: int = 0
) -> list[tuple[str, Origin]] | None:
    """The patterns of the keys `node` may be, each with the call that gave it; None when
    it cannot be read."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        READ.add(node)
        return [(re.escape(node.value), origin)]
    if isinstance(node, ast.JoinedStr):
        return _fstring(module, node, origin, depth)
    if isinstance(node, ast.IfExp):
        a = keys_of(module, node.body, origin, depth)
        b = keys_of(module, node.orelse, origin, depth)
        return None if a is None or b is None else a + b
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        table = _module_dict(module, node.value.id)
        if table is not None:
            return _all(module, list(table.values), origin, depth)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        joined = ast.JoinedStr(
            [ast.FormattedValue(node.left, -1), ast.FormattedValue(node.right, -1)]
        )
        return _fstring(module, joined, origin, depth)
    if isinstance(node, ast.Name):
        return _name(module, node, origin, depth)
    return None


def _all(
    module: Module, nodes: list[ast.expr], origin: Origin, depth: int
) -> list[tuple[str, Origin]] | None:
    found: list[tuple[str, Origin]] = []
    for value in nodes:
        keys = keys_of(module, value, origin, depth)
        if keys is None:
            return None
        found += keys
    return found


def _fstring(
    module: Module, node: ast.JoinedStr, origin: Origin, depth: int
) -> list[tuple[str, Origin]]:
    patterns: list[tuple[str, Origin]] = [("", origin)]
    for part in node.values:
        if isinstance(part, ast.Constant):
            patterns = [(p + re.escape(str(part.value)), o) for p, o in patterns]
            continue
        assert isinstance(part, ast.FormattedValue)
        inner = keys_of(module, part.value, origin, depth)
        if inner is None or (len(patterns) > 1 and len(inner) > 1):
            patterns = [(p + ANY, o) for p, o in patterns]
        elif len(patterns) == 1:
            patterns = [(patterns[0][0] + q, o) for q, o in inner]
        else:
            patterns = [(p + inner[0][0], o) for p, o in patterns]
    return patterns


def _module_dict(module: Module, name: str) -> ast.Dict | None:
    for statement in module.tree.body:
        if isinstance(statement, ast.Assign | ast.AnnAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            named = any(isinstance(x, ast.Name) and x.id == name for x in targets)
            value = statement.value
            if isinstance(value, ast.Call) and value.args:  # MappingProxyType({...})
                value = value.args[0]
            if named and isinstance(value, ast.Dict):
                return value
    return None


def _name(
    module: Module, node: ast.Name, origin: Origin, depth: int
) -> list[tuple[str, Origin]] | None:
    for scope in module.scopes(node):
        values = _assigned(scope, node.id)
        if values:
            return _all(module, values, origin, depth)
        if node.id in _parameters(scope):
            return _from_callers(scope, node.id, depth)
    top = [x for x in module.tree.body if not isinstance(x, ast.FunctionDef | ast.ClassDef)]
    values = [v for statement in top for v in _assigned(statement, node.id)]
    return _all(module, values, origin, depth) if values else None


def _assigned(scope: ast.AST, name: str) -> list[ast.expr]:
    """What `name` is given in the function: assignments, and loops over literals."""
    values: list[ast.expr] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_named(x, name) for x in targets) and node.value is not None:
                values.append(node.value)
        elif isinstance(node, ast.For | ast.comprehension) and _named(node.target, name):
            loop = node.iter
            values += loop.elts if isinstance(loop, ast.Tuple | ast.List) else [loop]
    return values


def _named(target: ast.expr, name: str) -> bool:
    return isinstance(target, ast.Name) and target.id == name


def _parameters(scope: Scope) -> list[str]:
    a = scope.args
    return [x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]]


def _from_callers(scope: Scope, name: str, depth: int) -> list[tuple[str, Origin]] | None:
    """A wrapper's key parameter: read at each call of the wrapper."""
    if depth >= DEPTH or isinstance(scope, ast.Lambda):
        return None
    a = scope.args
    positional = [x.arg for x in [*a.posonlyargs, *a.args]]
    index = positional.index(name) if name in positional else None
    if positional[:1] in (["self"], ["cls"]) and index is not None:
        index -= 1
    found: list[tuple[str, Origin]] = []
    callers = [
        (m, c) for m, c in calls_of(scope.name) if _fits(scope, c) and _may_call(scope, m, c)
    ]
    if not callers:
        return None
    for module, call in callers:
        given = [k.value for k in call.keywords if k.arg == name]
        if index is not None and index < len(call.args):
            given.append(call.args[index])
        if len(given) != 1:
            return None
        keys = keys_of(module, given[0], (module, call), depth + 1)
        if keys is None:
            return None
        found += keys
    return found


def _fits(scope: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call) -> bool:
    """Whether a call of that name may be a call of this function (another function of the
    same name, `chats.label(chat, topic)`, takes other arguments)."""
    a = scope.args
    positional = [x.arg for x in [*a.posonlyargs, *a.args]]
    if positional[:1] in (["self"], ["cls"]):
        positional = positional[1:]
    if len(call.args) > len(positional) and a.vararg is None:
        return False
    names = set(positional) | {x.arg for x in a.kwonlyargs}
    given = {k.arg for k in call.keywords if k.arg is not None}
    return a.kwarg is not None or given <= names


def _may_call(
    scope: ast.FunctionDef | ast.AsyncFunctionDef, module: Module, call: ast.Call
) -> bool:
    """A function is called by its name (or `module.name`); a method through `self`, in
    its class (`pack.label(card)` is another class's)."""
    owner = next((m for m in modules() if scope in m.parents), None)
    assert owner is not None
    parent = owner.parents.get(scope)
    func = call.func
    by_name = isinstance(func, ast.Name)
    receiver = None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        receiver = func.value.id
    if not isinstance(parent, ast.ClassDef):
        return by_name or receiver not in (None, "self")
    inside = module is owner and any(c is parent for c in module.ancestors(call))
    return receiver == "self" and inside


# --- counts ------------------------------------------------------------------------------


def count_of(module: Module, call: ast.Call) -> tuple[str, ast.expr | None]:
    """Whether the call gives `count`: ("yes", what it gives), ("no", None), ("wrapper",
    None) when it passes on a wrapper's `**values`, or (why it cannot be told, None)."""
    for keyword in call.keywords:
        if keyword.arg == "count":
            return "yes", keyword.value
    verdicts = [_spread(module, call, k.value) for k in call.keywords if k.arg is None]
    for verdict in verdicts:
        if verdict[0] == "yes":
            return verdict
    for verdict in verdicts:
        if verdict[0] != "no":
            return verdict
    return "no", None


def _spread(module: Module, call: ast.Call, value: ast.expr) -> tuple[str, ast.expr | None]:
    if isinstance(value, ast.Dict):
        verdict: tuple[str, ast.expr | None] = ("no", None)
        for key, item in zip(value.keys, value.values, strict=True):
            if key is None:  # `**f` after "count" may give another count: which, unknown
                inner = _spread(module, call, item)
                if verdict[0] == "yes" or inner[0] != "no":
                    verdict = ("yes", None) if verdict[0] == "yes" else inner
            elif isinstance(key, ast.Constant) and key.value == "count":
                verdict = ("yes", item)
        return verdict
    if isinstance(value, ast.Name):
        for scope in module.scopes(call):
            if scope.args.kwarg is not None and scope.args.kwarg.arg == value.id:
                return "wrapper", None
            assigned = _assigned(scope, value.id)
            if assigned:
                if all(isinstance(x, ast.Dict) for x in assigned):
                    verdicts = [_spread(module, call, x) for x in assigned]
                    return max(verdicts, key=lambda v: (v[0] == "yes", v[0] != "no"))
                return f"from {ast.unparse(assigned[0])[:40]}", None
    return f"from {ast.unparse(value)[:40]}", None


# --- the whole source --------------------------------------------------------------------


def sites() -> tuple[list[Site], list[Unread]]:
    """Every key each `t` call may render, with its count; the calls whose key is unread."""
    found: list[Site] = []
    unread: list[Unread] = []
    for module, call in translations():
        keys = keys_of(module, call.args[1], (module, call))
        if keys is None:
            unread.append((module.where(call), ast.unparse(call.args[1])))
            continue
        given, number = count_of(module, call)
        for pattern, (origin_module, origin) in keys:
            if given == "wrapper" and origin is not call:
                at_caller, number = count_of(origin_module, origin)
                where = f"{origin_module.where(origin)} (via {module.where(call)})"
                found.append(Site(where, pattern, at_caller, number, origin_module, origin))
            else:
                found.append(Site(module.where(call), pattern, given, number, module, call))
    return found, unread


def matching(pattern: str, keys: list[str]) -> list[str]:
    compiled = re.compile(pattern)
    return [key for key in keys if compiled.fullmatch(key)]


def given(call: ast.Call, name: str) -> ast.expr | None:
    """What the call gives the placeholder `name`: by keyword, or in a `**{...}` literal."""
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
        if keyword.arg is None and isinstance(keyword.value, ast.Dict):
            for key, value in zip(keyword.value.keys, keyword.value.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == name:
                    return value
    return None


def same_number(count: ast.expr, shown: ast.expr) -> bool:
    """`shown` is `count`, or `count` written out (`decimal(language, count)`)."""
    if ast.dump(count) == ast.dump(shown):
        return True
    return isinstance(shown, ast.Call) and any(ast.dump(a) == ast.dump(count) for a in shown.args)


def literals() -> Iterator[tuple[Module, ast.Constant]]:
    """Every string literal of the source (message kinds given as data among them:
    `plan.private(key, user, "dm.prod", {...})`)."""
    for module in modules():
        for node in module.parents:
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield module, node


def data_count(module: Module, node: ast.Constant) -> str:
    """Whether a message kind given as data comes with a count: its call (or its payload
    dict's) arguments hold a dict literal with "count" or a `Users` value ("yes", "no"), or
    why it cannot be told."""
    parent = module.parents.get(node)
    if isinstance(parent, ast.Dict):  # {"msg": kind, "args": {...}}
        beside = list(parent.values)
    elif isinstance(parent, ast.Call):
        beside = [*parent.args, *(k.value for k in parent.keywords)]
    else:
        return f"in {type(parent).__name__}"
    holders = [x for x in beside if isinstance(x, ast.Dict)]
    if not holders:
        return "no dict of arguments beside it"
    for holder in holders:
        for key, value in zip(holder.keys, holder.values, strict=True):
            if isinstance(key, ast.Constant) and key.value == "count":
                return "yes"
            if isinstance(value, ast.Call) and callee(value) == "Users":
                return "yes"
    return "no"
