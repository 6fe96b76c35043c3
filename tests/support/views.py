"""What each person sees, printed for a reader of an end-to-end test (`pytest -s`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from fakebot import FakeGroup, FakeMessage, FakeUser
from fakebot.messages import CallbackAnswer


@dataclass
class Toasts:
    """The answers each person got to their presses, in order."""

    seen: dict[int, list[str]] = field(default_factory=dict)

    def add(self, who: FakeUser, pressed: str, answer: CallbackAnswer) -> CallbackAnswer:
        if not answer.answered:
            said = "(no answer: the spinner turns)"
        elif answer.url:
            said = f"(opens {answer.url})"
        else:
            said = f"«{answer.text}»" if answer.text else "(answered, no text)"
        self.seen.setdefault(who.id, []).append(f"pressed [{pressed}] -> {said}")
        return answer

    def of(self, who: FakeUser) -> list[str]:
        return self.seen.get(who.id, [])


def line(message: FakeMessage) -> str:
    """One message as a line: its sender, its text (first lines) and its buttons."""
    if message.is_from_bot:
        who = "bot"
    else:
        who = message.from_user.first_name if message.from_user is not None else "?"
    text = " / ".join(message.text.splitlines()[:3])
    text = text if len(text) <= 160 else text[:157] + "..."
    buttons = " ".join(f"[{t}]" for row in message.buttons for t, _ in row)
    edited = " (edited)" if message.edits else ""
    return f"  {who}: {text}{edited}" + (f"  {buttons}" if buttons else "")


def print_views(
    title: str,
    groups: Iterable[FakeGroup],
    people: Iterable[FakeUser],
    toasts: Toasts | None = None,
) -> None:
    """Each group's thread, then each person's private chat and the toasts they got."""
    print(f"\n===== {title} =====")
    for group in groups:
        print(f"--- the group “{group.title}” (everyone in it sees this)")
        for message in group.messages():
            print(line(message))
    for person in people:
        print(f"--- {person.first_name}, in private with the bot")
        for message in person.private_chat.messages():
            print(line(message))
        for toast in toasts.of(person) if toasts is not None else ():
            print(f"  (toast) {toast}")
