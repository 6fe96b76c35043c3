"""The rule for a service a test needs (PostgreSQL, Redis) that does not answer: the test is
skipped on a developer's machine and fails under CI (CI=true), so a CI run never passes with
part of the suite silently left out."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def unreachable(message: str, *, ci: bool | None = None) -> NoReturn:
    """Skip the test, or fail it under CI."""
    if ci if ci is not None else under_ci():
        pytest.fail(message)
    pytest.skip(message)
