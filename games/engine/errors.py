"""Typed engine errors: every refusal carries a stable machine-readable code."""

from __future__ import annotations


class EngineError(Exception):
    """Raised by the engine for anything it refuses; `code` is stable API."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code

    def __repr__(self) -> str:
        return f"EngineError({self.code!r}, {self.message!r})"


class IllegalAction(EngineError):
    """The action is not among the seat's legal actions now."""


class NotYourTurn(EngineError):
    def __init__(self, message: str = "it is not your turn") -> None:
        super().__init__("not_your_turn", message)
