"""Table settings (house rules) with the defaults of RULES.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from chouette.table.errors import SettingsError, TableError

if TYPE_CHECKING:
    from chouette.table.state import TableState

CUBE_MODES = ("multi", "single")
ALL_BUT_ONE = ("off", "forced_drop", "mandatory_beaver")
BOX_RETENTION = ("beat_captain", "net_non_negative", "net_positive")
JOIN_POSITIONS = ("immediate", "after_next_rotation")
CONSULTING = ("free", "forbidden", "after_cube")
#: The highest stake a point is played at, at a table or by one player: 1,000,000.00 a point
#: (the cents of any currency, even one with small units); see ``cube_rules.MAX_CUBE``.
MAX_STAKE_CENTS = 100_000_000


@dataclass(frozen=True)
class Settings:
    """The house rules of one table; every field is printed on the table's rules card.

    >>> Settings.from_dict({"cube_mode": "single"}).cube_mode
    'single'
    """

    cube_mode: str = "multi"
    stake_cents: int = 100
    per_player_stakes: bool = False
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = 0
    all_but_one: str = "forced_drop"
    all_but_one_min_players: int = 5
    extras: bool = False
    partner_min_players: int = 8
    partner_share_percent: int = 50
    box_retention: str = "beat_captain"
    join_position: str = "immediate"
    consulting: str = "free"
    same_value_same_action: bool = False

    def __post_init__(self) -> None:
        choices = {
            "cube_mode": CUBE_MODES,
            "all_but_one": ALL_BUT_ONE,
            "box_retention": BOX_RETENTION,
            "join_position": JOIN_POSITIONS,
            "consulting": CONSULTING,
        }
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise SettingsError("setting {setting} must be true or false, not {value!r}",
                                    setting=f.name, value=value)
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise SettingsError("setting {setting} must be a whole number, not {value!r}",
                                    setting=f.name, value=value)
            if f.name in choices and value not in choices[f.name]:
                allowed = ", ".join(choices[f.name])
                raise SettingsError("setting {setting} must be one of {allowed}, not {value!r}",
                                    setting=f.name, allowed=allowed, value=value)
        ranges = {
            "stake_cents": (0, MAX_STAKE_CENTS),
            "automatic_doubles": (0, 10),
            "all_but_one_min_players": (3, 100),
            "partner_min_players": (0, 100),
            "partner_share_percent": (0, 100),
        }
        for name, (low, high) in ranges.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise SettingsError("setting {setting} must be between {low} and {high}, not {value}",
                                    setting=name, low=low, high=high, value=value)
        if 0 < self.partner_min_players < 3:
            raise SettingsError("partner_min_players is 0 (no partners) or at least 3: with two "
                                "players nobody is left to draw as the box's partner")
        if self.raccoons and not self.beavers:
            raise SettingsError("raccoons need beavers: turn beavers on first")
        if self.all_but_one == "mandatory_beaver" and not self.beavers:
            raise SettingsError("all_but_one mandatory_beaver needs beavers: turn beavers on first")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Settings:
        """Settings from a mapping; missing keys take the defaults of RULES.md.

        Raises:
            SettingsError: an unknown key or a bad value.
        """
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SettingsError("unknown table setting: {settings}", settings=", ".join(unknown))
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        """All settings as a plain dict (JSON-ready)."""
        return asdict(self)

    def changed(self, changes: Mapping[str, Any]) -> Settings:
        """These settings with ``changes`` made (the others kept), checked as a whole.

        >>> Settings().changed({"stake_cents": 200}).stake_cents
        200

        Raises:
            SettingsError: an unknown key, a bad value, or settings that do not go together.
        """
        return Settings.from_dict({**self.to_dict(), **changes})

    def differences(self, other: Settings) -> dict[str, tuple[Any, Any]]:
        """The settings ``other`` changes: key -> (value here, value in ``other``).

        >>> Settings().differences(Settings(jacoby=True))
        {'jacoby': (False, True)}
        """
        mine, theirs = self.to_dict(), other.to_dict()
        return {key: (mine[key], theirs[key]) for key in mine if mine[key] != theirs[key]}

    @property
    def partners_enabled(self) -> bool:
        """Whether box partners are ever offered at this table (0 turns them off)."""
        return self.partner_min_players > 0


def on_settings(state: TableState, event: dict[str, Any]) -> None:
    """The house rules change between games; the change applies from the next game (RULES 2.12).

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
