"""Faults a test injects into the fake Bot API: the next calls of a method fail, or take
effect but answer late."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .spec import ApiError


@dataclass
class Fault:
    """The next ``times`` calls of ``method`` (``"*"``: any) fail with this error."""

    method: str
    error_code: int
    description: str
    parameters: dict[str, Any] | None
    times: int
    chat_id: int | None = None


@dataclass
class Delay:
    """The next ``times`` calls of ``method`` (after ``skip`` of them) answer ``seconds`` late."""

    method: str
    seconds: float
    times: int
    chat_id: int | None = None
    skip: int = 0


def for_chat(chat_id: int | None, params: dict[str, Any]) -> bool:
    """A fault or delay for any chat, or for the chat the call names."""
    return chat_id is None or str(params.get("chat_id")) == str(chat_id)


class Faults:
    """The faults and delays waiting for their calls, used up as the calls come."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []
        self.delays: list[Delay] = []

    def fail_next(
        self,
        method: str,
        error_code: int = 429,
        *,
        retry_after: int | None = None,
        times: int = 1,
        description: str | None = None,
        chat_id: int | None = None,
    ) -> None:
        """Make the next ``times`` calls of ``method`` (or ``"*"``) fail before running;
        with ``chat_id``, only calls for that chat (the others run as usual).

        429 answers ``Too Many Requests: retry after N`` with ``parameters.retry_after``
        (N defaults to 1); other codes answer ``description`` or a generic text.
        """
        parameters = None
        if error_code == 429:
            retry_after = 1 if retry_after is None else retry_after
            parameters = {"retry_after": retry_after}
            description = description or f"Too Many Requests: retry after {retry_after}"
        description = description or (
            "Internal Server Error" if error_code >= 500 else "Bad Request: injected"
        )
        fault = Fault(method.lower(), error_code, description, parameters, times, chat_id)
        self.faults.append(fault)

    def delay_next(
        self,
        method: str,
        seconds: float,
        *,
        times: int = 1,
        chat_id: int | None = None,
        skip: int = 0,
    ) -> None:
        """Run the next ``times`` calls of ``method`` (or ``"*"``; with ``chat_id``, for that
        chat only; after letting ``skip`` of them pass) at once, then hold the answer back
        ``seconds``: a client that gives up earlier sees a timeout although the call took
        effect (the message was delivered)."""
        self.delays.append(Delay(method.lower(), seconds, times, chat_id, skip))

    def take_delay(self, method: str, params: dict[str, Any]) -> float:
        """The seconds this call's answer is held back (0: none), using a delay up."""
        for delay in self.delays:
            if delay.method in (method.lower(), "*") and for_chat(delay.chat_id, params):
                if delay.skip > 0:
                    delay.skip -= 1
                    return 0.0
                delay.times -= 1
                if delay.times <= 0:
                    self.delays.remove(delay)
                return delay.seconds
        return 0.0

    def take_fault(self, method: str, params: dict[str, Any]) -> ApiError | None:
        """The error this call fails with (None: it runs), using a fault up."""
        for fault in self.faults:
            if fault.method in (method.lower(), "*") and for_chat(fault.chat_id, params):
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                return ApiError(fault.error_code, fault.description, fault.parameters)
        return None
