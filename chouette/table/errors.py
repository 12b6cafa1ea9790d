"""Errors of the chouette rules: each message is written for the players at the table.

A refusal is raised as an English template with named parameters
(``TableError("{name} is not at this table", name=name)``): ``str()`` is the sentence, and
the interface translates ``template`` and ``params`` (see ``chouette.engine.errors.Refusal``).
"""

from __future__ import annotations

from chouette.engine.errors import Phrase, Refusal


class TableError(Refusal):
    """A command the chouette rules refuse now; the table is unchanged."""


class SettingsError(TableError):
    """A table setting with an unknown key or a value out of range."""


class LogError(TableError):
    """A log that cannot be folded: names the event number and the reason."""

    def __init__(self, index: int, event: object, reason: str | Phrase) -> None:
        super().__init__(Phrase("event {index}: {reason}", index=index, reason=reason))
        self.index = index
        self.event = event
        self.reason = str(reason)
