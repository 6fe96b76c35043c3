"""What the bot lacks in a group, read from its ChatMember (the Bot API's object, as a dict):
the one check behind `whodunit doctor`'s chat lines and the group's own notice."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class Lack(StrEnum):
    """Something the bot needs in a game's group and does not have."""

    REMOVED = "removed"  # not in the group (left or kicked)
    MUTED = "muted"  # restricted: may not send messages
    NOT_ADMIN = "not_admin"  # sees only the commands meant for it; can neither delete nor pin
    NO_DELETE = "no_delete"  # an admin that cannot delete careless accusations
    NO_PIN = "no_pin"  # an admin that cannot pin the game's index


# The admin rights a game's group should give the bot, and the lack of each.
ADMIN_RIGHTS = (("can_delete_messages", Lack.NO_DELETE), ("can_pin_messages", Lack.NO_PIN))


def lacking(member: Mapping[str, Any]) -> tuple[Lack, ...]:
    """What the bot lacks, given its ChatMember: nothing when it is an admin with every
    right it uses; otherwise the first of removed, muted, not an admin; or the admin
    rights it misses."""
    status = member.get("status")
    if status in ("left", "kicked") or (
        status == "restricted" and not member.get("is_member", True)
    ):
        return (Lack.REMOVED,)
    if status == "restricted" and not member.get("can_send_messages", False):
        return (Lack.MUTED,)
    if status == "creator":
        return ()
    if status != "administrator":
        return (Lack.NOT_ADMIN,)
    return tuple(lack for right, lack in ADMIN_RIGHTS if not member.get(right, False))


def told(lacks: tuple[Lack, ...]) -> str:
    """The lacks as stored, to tell each state once ("" when nothing lacks)."""
    return ",".join(lacks)
