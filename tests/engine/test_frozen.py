"""`engine.frozen.replace` behaves as `dataclasses.replace` on the engine's frozen values."""

from __future__ import annotations

import dataclasses

import pytest

from engine.frozen import replace


@dataclasses.dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Checked:
    n: int

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("negative")


def test_a_copy_with_the_changes_and_the_original_untouched() -> None:
    before = Plain(1, ("x",))
    after = replace(before, a=2)
    assert after == Plain(2, ("x",)) == dataclasses.replace(before, a=2)
    assert before == Plain(1, ("x",))
    assert type(after) is Plain and after is not before
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.a = 3  # type: ignore[misc]


def test_an_unknown_field_is_a_type_error_and_copies_nothing() -> None:
    with pytest.raises(TypeError, match="Plain has no field 'c'"):
        replace(Plain(1), a=2, c=3)


def test_a_class_that_checks_its_fields_still_checks_them() -> None:
    assert replace(Checked(1), n=2) == Checked(2)
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), n=-1)
