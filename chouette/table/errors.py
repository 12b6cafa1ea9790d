"""Errors of the chouette rules: each message is written for the players at the table."""

from __future__ import annotations


class TableError(ValueError):
    """A command the chouette rules refuse now; the table is unchanged."""


class SettingsError(TableError):
    """A table setting with an unknown key or a value out of range."""


class LogError(TableError):
    """A log that cannot be folded: names the event number and the reason."""

    def __init__(self, index: int, event: object, reason: str) -> None:
        super().__init__(f"event {index}: {reason}")
        self.index = index
        self.event = event
        self.reason = reason
