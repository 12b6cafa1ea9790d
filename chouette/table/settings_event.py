"""The settings event: the house rules changed between games (docs/rules.md 2.12).

Beside ``settings`` (the value) and below the rules (``rules.HANDLERS``), so that the settings
import no state and the state's value (``tablestate``) can import the settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chouette.table.errors import TableError
from chouette.table.tablestate import TableState


def on_settings(state: TableState, event: dict[str, Any]) -> None:
    """The house rules change between games; the change applies from the next game (docs/rules.md 2.12).

    ``{"type": "settings", "settings": {"stake_cents": 200, "jacoby": true}}`` names only
    the settings it changes; the others stay as they are.

    Raises:
        TableError: a game is in progress, the change names nothing, changes nothing, or
            gives settings the rules refuse (SettingsError).
    """
    changes = event.get("settings")
    if not isinstance(changes, Mapping) or not changes:
        raise TableError("a change of the house rules names the settings it changes")
    if state.game is not None:
        raise TableError("the house rules change between games: finish game {number} first",
                         number=state.game.number)
    new = state.settings.changed(changes)
    if new == state.settings:
        raise TableError("these are the table's house rules already: nothing changes")
    state.settings = new
    state.settings_log = (*state.settings_log, (len(state.games) + 1, new))
