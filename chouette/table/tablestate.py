"""The state of a chouette table: the value the fold of its log builds (``chouette.table.state``).

Here, below the rules, so that the rules (``rules``, ``cube_rules``, ``game_rules``) and the
fold (``state``) all import it and none of them imports another back.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chouette.table.errors import TableError
from chouette.table.game import Game, GameRecord
from chouette.table.history import History, Snapshots
from chouette.table.lines import SheetLine
from chouette.table.seats import Seats
from chouette.table.settings import Settings

RESERVED_NAMES = {"box", "team"}
#: The control characters (category Cc) that are not whitespace: never part of a name.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")
MAX_NAME = 40
#: The format of ``TableState.snapshot()``; stored snapshots of another version are ignored
#: (bump it when the snapshot's shape, or what the rules make of a log, changes).
SNAPSHOT_VERSION = 4


@dataclass
class TableState:
    """Everything the rules need to judge the next event at a table."""

    settings: Settings
    seats: Seats = field(default_factory=Seats)
    players: list[str] = field(default_factory=list)  # everyone who ever joined, in order
    stakes: dict[str, int] = field(default_factory=dict)  # per-player stakes, when allowed
    waiting: list[str] = field(default_factory=list)  # joined before the order was settled
    order_groups: list[list[str]] | None = None  # the starting order while ties re-roll
    ordered: bool = False
    partner_offers: list[str] = field(default_factory=list)  # who declined this box
    pending_joiners: list[str] = field(default_factory=list)  # join_position after_next_rotation
    game: Game | None = None
    games: History[GameRecord] = field(default_factory=History)
    effective: History[dict[str, Any]] = field(default_factory=History)  # the log less undone events
    #: the states after each finished game, by the length of ``effective`` then
    snapshots: Snapshots[TableState] = field(default_factory=Snapshots, repr=False)
    corrections: dict[int, dict[str, Any]] = field(default_factory=dict)  # game -> correction
    #: The house rules and the game from which each applied, in the order they were set: the
    #: table's own first, then each settings event's (``settings`` is the latest).
    settings_log: tuple[tuple[int, Settings], ...] = ()
    #: What happened so far in the game in progress, for its score sheet (``sheet.note``).
    game_lines: tuple[SheetLine, ...] = ()

    def __post_init__(self) -> None:
        if not self.settings_log:
            self.settings_log = ((1, self.settings),)
        # Plain lists and dicts are accepted (tests, older callers) and wrapped once.
        if not isinstance(self.games, History):
            self.games = History(self.games)
        if not isinstance(self.effective, History):
            self.effective = History(self.effective)
        if not isinstance(self.snapshots, Snapshots):
            self.snapshots = Snapshots(dict(self.snapshots).items())

    def copy(self) -> TableState:
        """An independent copy: what ``apply_event`` mutates is copied, the rest shared (the
        games, the log and the snapshots are views that only ever grow at their own end)."""
        return TableState(
            self.settings, self.seats.copy(), list(self.players), dict(self.stakes),
            list(self.waiting),
            [list(g) for g in self.order_groups] if self.order_groups is not None else None,
            self.ordered, list(self.partner_offers), list(self.pending_joiners),
            self.game.copy() if self.game else None, self.games.copy(), self.effective.copy(),
            self.snapshots.copy(), self.corrections, self.settings_log, self.game_lines,
        )

    @property
    def initial_settings(self) -> Settings:
        """The settings the table was created with (its log folds from these)."""
        return self.settings_log[0][1]

    def settings_for(self, number: int) -> Settings:
        """The house rules game ``number`` is (or will be) played by."""
        found = self.settings_log[0][1]
        for first, settings in self.settings_log:
            if first <= number:
                found = settings
        return found

    def settings_changes(self) -> list[tuple[int, Settings, dict[str, tuple[Any, Any]]]]:
        """Each change of the house rules: the game it applies from, the settings from
        then on, and what changed (key -> (before, after)); a change undone by a later one
        before the same game is folded into it, and one that changed nothing is left out."""
        found: list[tuple[int, Settings, dict[str, tuple[Any, Any]]]] = []
        previous = self.initial_settings
        by_game: dict[int, Settings] = dict(self.settings_log[1:])  # a later one at a game wins
        for first in sorted(by_game):
            settings = by_game[first]
            changed = previous.differences(settings)
            if changed:
                found.append((first, settings, changed))
            previous = settings
        return found

    # --- views -------------------------------------------------------------------------

    @property
    def box(self) -> str | None:
        """The box."""
        return self.seats.box

    @property
    def partner(self) -> str | None:
        """The box's partner, if any."""
        return self.seats.partner

    @property
    def captain(self) -> str | None:
        """The captain (the acting captain during a game after a captain's drop)."""
        return self.seats.captain

    @property
    def line(self) -> list[str]:
        """The players waiting after the captain, in order."""
        return list(self.seats.line)

    @property
    def seated(self) -> list[str]:
        """Everyone at the table now (box, partner, team, or waiting for the order)."""
        ordering = [p for g in self.order_groups or [] for p in g]
        return self.waiting + ordering + self.seats.seated + self.pending_joiners

    def is_seated(self, name: str) -> bool:
        """Whether ``name`` is at the table now (cheaper than ``name in seated``)."""
        seats = self.seats
        return (name == seats.box or name == seats.captain or name == seats.partner
                or name in seats.line or name in self.waiting or name in self.pending_joiners
                or any(name in group for group in self.order_groups or ()))

    @property
    def in_game(self) -> bool:
        """Whether a game has started and not finished."""
        return self.game is not None

    def stake_of(self, player: str) -> int:
        """The player's stake in cents (the table's stake unless per-player stakes)."""
        return self.stakes.get(player, self.settings.stake_cents)

    def next_partner_offer(self) -> str | None:
        """Who must be offered the partnership next, or None when all have declined."""
        for name in self.seats.team:
            if name not in self.partner_offers:
                return name
        return None

    def needs_partner(self) -> bool:
        """Whether the box's partnership must be settled before the next game."""
        s = self.settings
        return (
            s.partners_enabled
            and self.ordered
            and self.seats.partner is None
            and self.seats.box is not None
            and len(self.seats.seated) >= s.partner_min_players
        )

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, without the log (see ``from_snapshot``)."""
        return {
            "settings": self.initial_settings.to_dict(),
            "settings_log": [[first, settings.to_dict()] for first, settings in self.settings_log],
            "game_lines": [line.to_list() for line in self.game_lines],
            "seats": self.seats.to_dict(),
            "players": list(self.players),
            "stakes": dict(self.stakes),
            "waiting": list(self.waiting),
            "order_groups": self.order_groups,
            "ordered": self.ordered,
            "partner_offers": list(self.partner_offers),
            "pending_joiners": list(self.pending_joiners),
            "game": self.game.to_dict() if self.game else None,
            "games": [g.to_dict() for g in self.games],
            "effective_count": len(self.effective),
            "corrections": {str(n): c for n, c in self.corrections.items()},
        }

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any]) -> TableState:
        """A state rebuilt from ``snapshot()`` data; its log starts empty.

        Undo cannot reach before a resumed state: the caller refolds for that (see
        ``effective_events``).

        Raises:
            TableError: malformed snapshot data.
        """
        try:
            seats = data["seats"]
            settings_log = tuple((int(first), Settings.from_dict(settings))
                                 for first, settings in data.get("settings_log") or ())
            if not settings_log:
                settings_log = ((1, Settings.from_dict(data["settings"])),)
            return cls(
                settings_log[-1][1],
                Seats(seats["box"], seats["partner"], seats["captain"], list(seats["line"])),
                list(data["players"]), dict(data["stakes"]), list(data["waiting"]),
                [list(g) for g in data["order_groups"]] if data["order_groups"] else None,
                bool(data["ordered"]), list(data["partner_offers"]),
                list(data["pending_joiners"]),
                Game.from_dict(data["game"]) if data["game"] else None,
                History(GameRecord.from_dict(g) for g in data["games"]),
                corrections={int(n): c for n, c in (data.get("corrections") or {}).items()},
                settings_log=settings_log,
                game_lines=tuple(SheetLine.from_list(line) for line in data.get("game_lines") or ()),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TableError(f"a table snapshot is malformed: {exc}") from exc

    def summary(self) -> dict[str, Any]:
        """Seats and the number of games (the replay command adds the money)."""
        return {
            "box": self.box,
            "partner": self.partner,
            "captain": self.captain,
            "line": self.line,
            "games": len(self.games),
        }


def check_name(value: object, what: str = "player") -> str:
    """A player's display name from an event, checked.

    Raises:
        TableError: missing, empty, holding a control character, too long or reserved.
    """
    if not isinstance(value, str) or not value.strip():
        raise TableError("the {what} needs a name", what=what)
    # A control character (NUL...) is never part of a name; whitespace ones collapse below.
    control = _CONTROL.search(value)
    if control is not None:
        raise TableError("a name cannot hold a control character ({code})",
                         code=f"U+{ord(control.group()):04X}")
    # One spelling per name: "Zoë" typed precomposed or decomposed is the same player.
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if len(name) > MAX_NAME:
        raise TableError("a name has at most {count} characters: {name}...", count=MAX_NAME, name=name[:MAX_NAME])
    if name.lower() in RESERVED_NAMES:
        raise TableError("{name!r} is a word the table uses; choose another name", name=name)
    return name
