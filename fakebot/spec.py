"""Request validation driven by the machine-readable Bot API description in ``api.json``.

``api.json`` (Bot API 10.1) was scraped from the official documentation by
PaulSonOfLars/telegram-bot-api-spec (MIT, see ``API_LICENSE``).  Every parameter of every
request is checked against it: unknown parameters and unknown fields of nested objects are
refused (real Telegram silently ignores them, the fake is stricter so that typos surface),
missing required fields are refused, and basic types are checked and coerced from the form
encoding that PTB uses (strings as-is, everything else JSON-encoded).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

API_JSON = Path(__file__).with_name("api.json")

_SCALARS = frozenset({"Integer", "Float", "String", "Boolean", "InputFile"})
_DISCRIMINATOR = re.compile(r"""(?:always|must be) ["“]?([a-z_]+)["”]?""")
_INT = re.compile(r"-?\d+")
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)


class ApiError(Exception):
    """An error answer of the Bot API: HTTP status, description, optional parameters."""

    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict[str, Any]:
        """The JSON body Telegram answers with."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(message: str) -> ApiError:
    """A 400 error with Telegram's ``Bad Request: `` prefix."""
    return ApiError(400, f"Bad Request: {message}")


class Spec:
    """The Bot API methods and types, with a generic validator."""

    def __init__(self, data: dict[str, Any]):
        self.version: str = data.get("version", "?")
        self.types: dict[str, dict[str, Any]] = data["types"]
        self.methods: dict[str, dict[str, Any]] = data["methods"]
        self._by_lower = {name.lower(): name for name in self.methods}
        self.type_checks: dict[str, Callable[[dict[str, Any], str], None]] = {
            "InlineKeyboardButton": _check_button,
            "InlineKeyboardMarkup": _check_inline_keyboard,
            "BotCommand": _check_bot_command,
        }

    # -- lookup -----------------------------------------------------------------------------
    def method_name(self, name: str) -> str | None:
        """The canonical name of a method (Bot API method names are case-insensitive)."""
        return self._by_lower.get(name.lower())

    def fields(self, type_or_method: str) -> dict[str, dict[str, Any]]:
        """The fields of a type or method, by name."""
        entry = self.methods.get(type_or_method) or self.types[type_or_method]
        return {f["name"]: f for f in entry.get("fields", [])}

    # -- requests ---------------------------------------------------------------------------
    def validate_request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Check and coerce the parameters of a call to ``method`` (canonical name)."""
        fields = self.fields(method)
        out: dict[str, Any] = {}
        for key, value in params.items():
            if key not in fields:
                if _is_upload(value):  # a file part referenced as attach://<name>
                    out[key] = value
                    continue
                raise bad_request(f'method {method} has no parameter "{key}"')
            out[key] = self.coerce(fields[key]["types"], value, key)
        for name, field in fields.items():
            if field["required"] and out.get(name) in (None, ""):
                if method in ("sendMessage", "editMessageText") and name == "text":
                    raise bad_request("message text is empty")
                raise bad_request(f"{name} is required")
        return out

    # -- values -----------------------------------------------------------------------------
    def coerce(self, types: list[str], value: Any, path: str) -> Any:
        """Coerce ``value`` to the first of ``types`` it fits, or raise the best error."""
        errors: list[tuple[int, ApiError]] = []
        for type_name in types:
            try:
                return self._coerce_one(type_name, value, path)
            except ApiError as err:
                errors.append((self._fit(type_name, value), err))
        if len(errors) == 1:
            raise errors[0][1]
        if any(t not in _SCALARS and not t.startswith("Array") for t in types) and isinstance(
            _maybe_json(value), dict
        ):
            raise max(errors, key=lambda pair: pair[0])[1]
        raise bad_request(f'field "{path}" must be of type {" or ".join(types)}')

    def _fit(self, type_name: str, value: Any) -> int:
        """How many keys of ``value`` the object type knows (to pick the best error)."""
        value = _maybe_json(value)
        if type_name not in self.types or not isinstance(value, dict):
            return -1
        known = self.fields(type_name)
        return sum(key in known for key in value) - sum(key not in known for key in value)

    def _coerce_one(self, type_name: str, value: Any, path: str) -> Any:
        if type_name.startswith("Array of "):
            value = _decode_json(value, path)
            if not isinstance(value, list):
                raise bad_request(f'field "{path}" must be an Array')
            inner = type_name.removeprefix("Array of ")
            return [self._coerce_one(inner, item, f"{path}[{i}]") for i, item in enumerate(value)]
        if type_name == "Integer":
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if isinstance(value, str) and _INT.fullmatch(value.strip()):
                return int(value)
            raise bad_request(f'field "{path}" must be of type Integer')
        if type_name == "Float":
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
            try:
                return float(value)
            except (TypeError, ValueError):
                raise bad_request(f'field "{path}" must be of type Float') from None
        if type_name == "Boolean":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
                return value.lower() in ("true", "1")
            if value in (0, 1):
                return bool(value)
            raise bad_request(f'field "{path}" must be of type Boolean')
        if type_name == "String":
            if isinstance(value, str):
                return value
            if isinstance(value, int | float) and not isinstance(value, bool):
                return str(value)
            raise bad_request(f'field "{path}" must be of type String')
        if type_name == "InputFile":
            if _is_upload(value) or (isinstance(value, str) and value.startswith("attach://")):
                return value
            raise bad_request(f'field "{path}" must be an uploaded file')
        return self.check_object(type_name, value, path)

    def check_object(self, type_name: str, value: Any, path: str) -> dict[str, Any]:
        """Validate a nested object of ``type_name`` (JSON-encoded strings are decoded)."""
        value = _decode_json(value, path)
        if not isinstance(value, dict):
            raise bad_request(f'field "{path}" must be a JSON object of type {type_name}')
        entry = self.types[type_name]
        if "subtypes" in entry:
            type_name = self._subtype(type_name, value, path)
            entry = self.types[type_name]
        fields = self.fields(type_name)
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key not in fields:
                raise bad_request(f'{type_name} in "{path}" has no field "{key}"')
            out[key] = self.coerce(fields[key]["types"], item, f"{path}.{key}")
        for name, field in fields.items():
            if field["required"] and name not in out:
                raise bad_request(f"{path}.{name} is required in {type_name}")
            constant = _constant(field)
            if constant and name in out and out[name] != constant:
                raise bad_request(f'{path}.{name} must be "{constant}" in {type_name}')
        check = self.type_checks.get(type_name)
        if check:
            check(out, path)
        return out

    def _subtype(self, type_name: str, value: dict[str, Any], path: str) -> str:
        subtypes: list[str] = self.types[type_name]["subtypes"]
        for sub in subtypes:
            for field in self.types[sub].get("fields", []):
                constant = _constant(field)
                if constant and value.get(field["name"]) == constant:
                    return sub
        raise bad_request(f'unsupported {type_name} type in "{path}"')

    # -- responses --------------------------------------------------------------------------
    def conformance_errors(self, type_name: str, value: Any, path: str = "result") -> list[str]:
        """Ways in which a response object differs from the documented ``type_name``."""
        if type_name.startswith("Array of "):
            if not isinstance(value, list):
                return [f"{path}: expected an array"]
            inner = type_name.removeprefix("Array of ")
            return [
                e
                for i, v in enumerate(value)
                for e in self.conformance_errors(inner, v, f"{path}[{i}]")
            ]
        if type_name in ("Integer", "Float", "String", "Boolean", "True"):
            return []
        if not isinstance(value, dict):
            return [f"{path}: expected {type_name}"]
        if "subtypes" in self.types[type_name]:
            try:
                type_name = self._subtype(type_name, value, path)
            except ApiError:
                if type_name == "MaybeInaccessibleMessage":
                    type_name = "Message" if value.get("date") else "InaccessibleMessage"
                else:
                    return [f"{path}: no subtype of {type_name} fits"]
        fields = self.fields(type_name)
        errors = [f"{path}.{k}: not a field of {type_name}" for k in value if k not in fields]
        errors += [
            f"{path}.{n}: missing" for n, f in fields.items() if f["required"] and n not in value
        ]
        for key, item in value.items():
            if key in fields:
                errors += self._union_errors(fields[key]["types"], item, f"{path}.{key}")
        return errors

    def _union_errors(self, types: list[str], value: Any, path: str) -> list[str]:
        best: list[str] | None = None
        for type_name in types:
            errors = self.conformance_errors(type_name, value, path)
            if not errors:
                return []
            if best is None or len(errors) < len(best):
                best = errors
        return best or []


def _constant(field: dict[str, Any]) -> str | None:
    if field["name"] not in ("type", "status", "source"):
        return None
    match = _DISCRIMINATOR.search(field.get("description", ""))
    return match.group(1) if match else None


def _is_upload(value: Any) -> bool:
    return hasattr(value, "file") and hasattr(value, "filename")


def _maybe_json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _decode_json(value: Any, path: str) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(f"can't parse {path} JSON object") from None
    return value


def _check_button(button: dict[str, Any], path: str) -> None:
    actions = [key for key in _BUTTON_ACTIONS if key in button]
    if not button.get("text"):
        raise bad_request("BUTTON_TEXT_INVALID")
    if not actions:
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    if len(actions) > 1:
        raise bad_request(
            f"can't parse inline keyboard button: more than one of {actions} in {path}"
        )
    data = button.get("callback_data")
    if data is not None and not 1 <= len(data.encode()) <= 64:
        raise bad_request("BUTTON_DATA_INVALID")
    url = button.get("url")
    if url is not None and not re.match(r"(https?|tg)://\S+$", url):
        raise bad_request("BUTTON_URL_INVALID")
    web_app = button.get("web_app")
    if web_app is not None and not re.match(r"https://\S+$", str(web_app.get("url", ""))):
        raise bad_request("BUTTON_URL_INVALID")  # a Mini App is served over https only


def _check_inline_keyboard(markup: dict[str, Any], path: str) -> None:
    rows = markup["inline_keyboard"]
    if sum(len(row) for row in rows) > 100:
        raise bad_request("reply markup is too long")


def _check_bot_command(command: dict[str, Any], path: str) -> None:
    if not _COMMAND.fullmatch(command["command"]):
        raise bad_request("BOT_COMMAND_INVALID")
    if not 1 <= len(command["description"]) <= 256:
        raise bad_request("command description must be 1-256 characters long")


@cache
def load_spec() -> Spec:
    """The Bot API description shipped next to this module (parsed once)."""
    return Spec(json.loads(API_JSON.read_text(encoding="utf-8")))
