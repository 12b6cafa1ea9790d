"""Table settings (house rules) with the defaults of docs/rules.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from chouette.table.errors import SettingsError

CUBE_MODES = ("multi", "single")
ALL_BUT_ONE = ("off", "forced_drop", "mandatory_beaver")
BOX_RETENTION = ("beat_captain", "net_non_negative", "net_positive")
JOIN_POSITIONS = ("immediate", "after_next_rotation")
CONSULTING = ("free", "forbidden", "after_cube")
#: How the game is played: at the club, on a physical board whose dice and moves the organizer
#: or the players enter; or online, each side rolling (the server's dice) and moving on its
#: own device (docs/rules.md 2.12: changed between games like any house rule).
PLAY_MODES = ("club", "online")
#: What an online table's unanswered double becomes when its time is up (docs/rules.md 2.12).
UNANSWERED_DOUBLE = ("drop", "take")
#: The longest time limit an online table gives a decision (ten minutes).
MAX_DECISION_SECONDS = 600
#: The online table's clock, left out of ``to_dict`` at their defaults (no time limit), so a
#: table's settings, snapshots and exports are as before the clock was a house rule.
CLOCK_DEFAULTS = {"decision_seconds": 0, "unanswered_double": "drop"}
#: How a head-to-head match puts money in the ledger: not at all, per point won, per match.
MATCH_STAKES = ("none", "point", "match")
#: The longest match a table plays (docs/rules.md 1.8: an odd number, typically 3 to 25).
MAX_MATCH_LENGTH = 99
#: The settings of a head-to-head match; a chouette table (match_length 0) leaves them out
#: of ``to_dict``, so its settings, snapshots and exports are as before matches existed.
MATCH_KEYS = ("match_length", "holland", "match_stake")
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
    play: str = "club"  # "online": the box and the captain roll and move on their devices
    decision_seconds: int = 0  # online: each decision's time limit in seconds (0: none)
    unanswered_double: str = "drop"  # online: what a double unanswered in time becomes
    match_length: int = 0  # 0: a chouette; N: a head-to-head match to N points (docs/rules.md 1.8)
    holland: bool = False
    match_stake: str = "none"

    def __post_init__(self) -> None:
        choices = {
            "cube_mode": CUBE_MODES,
            "all_but_one": ALL_BUT_ONE,
            "box_retention": BOX_RETENTION,
            "join_position": JOIN_POSITIONS,
            "consulting": CONSULTING,
            "match_stake": MATCH_STAKES,
            "play": PLAY_MODES,
            "unanswered_double": UNANSWERED_DOUBLE,
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
            "match_length": (0, MAX_MATCH_LENGTH),
            "decision_seconds": (0, MAX_DECISION_SECONDS),
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
        self._check_match()

    def _check_match(self) -> None:
        """A match is to an odd number of points, one cube, none of money play's options."""
        if not self.match_length:
            if self.holland or self.match_stake != "none":
                raise SettingsError("the Holland rule and a match stake are settings of a match")
            return
        if self.match_length % 2 == 0:
            raise SettingsError("a match is to an odd number of points, not {length}",
                                length=self.match_length)
        if self.beavers or self.raccoons:
            raise SettingsError("no beavers or raccoons in a match")
        if self.jacoby:
            raise SettingsError("no Jacoby rule in a match")
        if self.automatic_doubles:
            raise SettingsError("no automatic doubles in a match")
        if self.extras or self.per_player_stakes or self.partner_min_players:
            raise SettingsError("a match is between two players: no extras, partners or "
                                "per-player stakes")
        if self.cube_mode != "single":
            raise SettingsError("a match plays one cube: cube_mode single")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Settings:
        """Settings from a mapping; missing keys take the defaults of docs/rules.md.

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
        data = asdict(self)
        if not self.match_length:
            for key in MATCH_KEYS:
                del data[key]
        if self.play == "club":  # a table at the club: its settings as before online play
            del data["play"]
        for key, default in CLOCK_DEFAULTS.items():
            if data[key] == default:
                del data[key]
        return data

    @classmethod
    def for_match(cls, length: int, *, holland: bool = False, stake: str = "none",
                  stake_cents: int = 0) -> Settings:
        """The settings of a head-to-head match to ``length`` points (docs/rules.md 1.8).

        >>> Settings.for_match(5, holland=True).cube_mode
        'single'

        Raises:
            SettingsError: an even or out-of-range length, an unknown stake kind.
        """
        return cls(cube_mode="single", stake_cents=stake_cents, partner_min_players=0,
                   all_but_one="off", match_length=length, holland=holland, match_stake=stake)

    @property
    def is_match(self) -> bool:
        """Whether the table plays a head-to-head match rather than a chouette."""
        return self.match_length > 0

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
        >>> Settings().differences(Settings(play="online", decision_seconds=30))
        {'play': ('club', 'online'), 'decision_seconds': (0, 30)}
        """
        mine, theirs = asdict(self), asdict(other)  # every field: to_dict leaves defaults out
        return {key: (mine[key], theirs[key]) for key in mine if mine[key] != theirs[key]}

    @property
    def online(self) -> bool:
        """Whether the table plays online: each side rolls and moves on its own device, with
        the server's dice only."""
        return self.play == "online"

    @property
    def partners_enabled(self) -> bool:
        """Whether box partners are ever offered at this table (0 turns them off)."""
        return self.partner_min_players > 0

