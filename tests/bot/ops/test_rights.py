"""What the bot lacks in a group, from its ChatMember: the one check `whodunit doctor` and
the group's own notice share (bot/rights.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rights import Lack, lacking, told
from fakebot.chats import ADMIN_RIGHTS


@pytest.mark.parametrize(
    ("member", "lacks"),
    [
        ({"status": "creator"}, ()),
        ({"status": "administrator", **ADMIN_RIGHTS}, ()),
        ({"status": "administrator", **ADMIN_RIGHTS, "can_pin_messages": False}, (Lack.NO_PIN,)),
        (
            {
                **ADMIN_RIGHTS,
                "status": "administrator",
                "can_delete_messages": False,
                "can_pin_messages": False,
            },
            (Lack.NO_DELETE, Lack.NO_PIN),
        ),
        ({"status": "member"}, (Lack.NOT_ADMIN,)),
        ({"status": "restricted", "is_member": True, "can_send_messages": True}, (Lack.NOT_ADMIN,)),
        ({"status": "restricted", "is_member": True, "can_send_messages": False}, (Lack.MUTED,)),
        ({"status": "restricted", "is_member": False, "can_send_messages": True}, (Lack.REMOVED,)),
        ({"status": "left"}, (Lack.REMOVED,)),
        ({"status": "kicked", "until_date": 0}, (Lack.REMOVED,)),
    ],
)
def test_what_the_bot_lacks(member: dict[str, Any], lacks: tuple[Lack, ...]) -> None:
    assert lacking(member) == lacks


def test_lacks_are_stored_as_words() -> None:
    assert told((Lack.NO_DELETE, Lack.NO_PIN)) == "no_delete,no_pin"
    assert told(()) == ""
