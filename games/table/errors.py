"""The one error a table command raises: a code clients act on and a message people read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ServiceError(Exception):
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class NeedsLock(Exception):
    """A change tried without the table's lock (games.table.unlocked) needs it after all: a
    statement was about to run (anything beyond the table's rows and the log), or the hand ended."""
