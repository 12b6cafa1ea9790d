"""A chouette table's state: the fold of its log through the rules (DESIGN.md, RULES 2).

``apply_event(state, event)`` checks one event against the current state and returns the
new state (the old one is untouched); ``fold(settings, events)`` replays a whole log, undo
events included. Both cost the same for every event however long the log: a state shares
its effective log, its games and its snapshots with the state before it
(``chouette.table.history``), so folding n events is linear in n.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chouette.table import rules, sheet
from chouette.table.errors import LogError, TableError
from chouette.table.game import Game, GameRecord
from chouette.table.history import WORK, History, Snapshots
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
        by_game: dict[int, Settings] = {}
        for first, settings in self.settings_log[1:]:
            by_game[first] = settings
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


def new_table(settings: Settings | Mapping[str, Any] | None = None) -> TableState:
    """An empty table with these settings (a mapping is read with Settings.from_dict).

    Raises:
        SettingsError: an unknown setting or a bad value.
    """
    if not isinstance(settings, Settings):
        settings = Settings.from_dict(settings)
    return TableState(settings)


def apply_event(state: TableState, event: Mapping[str, Any]) -> TableState:
    """The table after ``event``; ``state`` itself is never changed.

    Raises:
        TableError: the event is malformed or the rules refuse it now (the message says why).
    """
    if not isinstance(event, Mapping):
        raise TableError("an event must be an object with a type, not {event!r}", event=event)
    event = dict(event)
    if event.get("type") == "undo":
        return _undo(state)
    if event.get("type") == "correct":
        if state.settings.is_match:
            from chouette.table import match_rules

            match_rules.check(state, event)
        return _refold(state.initial_settings, state.effective + [event])
    return _apply(state, event)


def try_event(state: TableState, event: Mapping[str, Any]) -> TableState:
    """The table after ``event``, for a look ahead (is it legal? what would it do?).

    The same as ``apply_event``, except that the new state's log, games and snapshots are
    its own (``History.overlay``): trying events on a state never makes the next real event
    at that state copy its log. Keep the result for reading, not as the table's state.

    Raises:
        TableError: as ``apply_event``.
    """
    look = state.copy()
    look.effective = state.effective.overlay()
    look.games = state.games.overlay()
    look.snapshots = state.snapshots.overlay()
    return apply_event(look, event)


def _apply(state: TableState, event: dict[str, Any]) -> TableState:
    """Apply one plain event (not undo, not a new correction) to a copy of ``state``."""
    new = state.copy()
    WORK.events += 1
    game, before = new.game, sheet.before(new, event)
    rules.apply(new, event)
    sheet.note(new, game, before, event)
    new.effective.append(event)
    if new.game is None and len(new.games) > len(state.games):
        # A game just finished: keep a snapshot so later folds start from here.
        new.snapshots.add(len(new.effective), new.copy())
    return new


def fold(settings: Settings | Mapping[str, Any] | None, events: Iterable[Mapping[str, Any]]
         ) -> TableState:
    """Replay a whole log (undo events included) from an empty table.

    The state being built is private to the fold, so plain events change it in place; only
    the snapshot of each finished game, undo and corrections make copies.

    Raises:
        LogError: names the event number (from 1) and the reason.
    """
    state = new_table(settings)
    for index, event in enumerate(events, start=1):
        try:
            if isinstance(event, Mapping) and event.get("type") not in ("undo", "correct"):
                _apply_in_place(state, dict(event))
            else:
                state = apply_event(state, event)
        except TableError as exc:
            raise LogError(index, event, exc.phrase) from exc
    return state


def _apply_in_place(state: TableState, event: dict[str, Any]) -> None:
    """Apply a plain event to a state nobody else holds (the fold's own)."""
    games = len(state.games)
    WORK.events += 1
    game, before = state.game, sheet.before(state, event)
    rules.apply(state, event)
    sheet.note(state, game, before, event)
    state.effective.append(event)
    if state.game is None and len(state.games) > games:
        state.snapshots.add(len(state.effective), state.copy())


def effective_events(events: Iterable[Mapping[str, Any]]) -> list[int]:
    """Indices of the events that are in effect: each undo cancels the latest one left.

    >>> effective_events([{"type": "join"}, {"type": "join"}, {"type": "undo"}])
    [0]

    Raises:
        TableError: an undo with nothing left to undo.
    """
    kept: list[int] = []
    for index, event in enumerate(events):
        if event.get("type") == "undo":
            if not kept:
                raise TableError("there is nothing to undo")
            kept.pop()
        else:
            kept.append(index)
    return kept


def resume(snapshot: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> TableState:
    """Fold the effective events that follow a snapshot (no undo among them).

    Raises:
        TableError: the snapshot is malformed or an event is refused.
    """
    state = TableState.from_snapshot(snapshot)
    for event in events:
        state = apply_event(state, event)
    return state


def finishes_game(before: TableState, after: TableState, event: Mapping[str, Any]) -> bool:
    """Whether ``event`` took ``before`` to ``after`` by finishing a game (a result, or the
    move that ends a board game): the states a snapshot is kept of."""
    return (event.get("type") not in ("undo", "correct") and after.game is None
            and len(after.games) > len(before.games))


def can_resume(events: Sequence[Mapping[str, Any]], at: int) -> bool:
    """Whether the state after the first ``at`` of ``events`` (a whole log, undo events
    included) is the start of the state after all of them.

    It is not when an undo after ``at`` reaches back to an event at or before it, nor when
    an effective correction follows it (a correction refolds the whole log).

    >>> join = {"type": "join", "player": "Ann"}
    >>> can_resume([join, join, {"type": "undo"}], 1), can_resume([join, {"type": "undo"}], 1)
    (True, False)

    Raises:
        TableError: an undo with nothing left to undo.
    """
    return _resume_split(events, at) is not None


def effective_after(events: Sequence[Mapping[str, Any]], at: int) -> list[int] | None:
    """The indices of the effective events after the first ``at`` of ``events`` (a whole
    log), or None when the state after ``at`` is not the start of the state after all of
    them (see ``can_resume``).

    Raises:
        TableError: an undo with nothing left to undo.
    """
    split = _resume_split(events, at)
    return None if split is None else split[1]


def _resume_split(events: Sequence[Mapping[str, Any]], at: int) -> tuple[list[int], list[int]] | None:
    """The effective events up to ``at`` and those after it, or None (see ``can_resume``)."""
    if not 0 <= at <= len(events):
        return None
    kept = effective_events(events)
    before = effective_events(events[:at])
    if kept[:len(before)] != before:
        return None
    after = kept[len(before):]
    if any(events[i].get("type") == "correct" for i in after):
        return None
    return before, after


def resume_log(snapshot: Mapping[str, Any], at: int, events: Sequence[Mapping[str, Any]]
               ) -> TableState:
    """The state after all of ``events`` (a whole log), folding only those after ``at``:
    ``snapshot`` is the state after the first ``at`` of them.

    Unlike ``resume`` the state keeps the whole effective log, so undo and corrections work
    on it as on a full fold (an undo reaching before ``at`` refolds from the start).

    Raises:
        TableError: the log after ``at`` invalidates the snapshot (``can_resume`` is false),
            the snapshot is malformed or of another log, or an event is refused.
    """
    split = _resume_split(events, at)
    if split is None:
        raise TableError(f"the log after event {at} reaches back before it: fold it whole")
    before, after = split
    if snapshot.get("effective_count", len(before)) != len(before):
        raise TableError(f"the snapshot after event {at} is not of this log")
    state = TableState.from_snapshot(snapshot)
    state.effective = History(dict(events[i]) for i in before)
    state.snapshots = Snapshots([(len(before), state.copy())])
    for index in after:
        _apply_in_place(state, dict(events[index]))
    return state


def corrections_of(events: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """The corrections among effective events, per game number (the latest one wins)."""
    found: dict[int, dict[str, Any]] = {}
    for event in events:
        number = event.get("game")
        if event.get("type") == "correct" and isinstance(number, int):
            found[number] = dict(event)
    return found


def _refold(settings: Settings, events: list[dict[str, Any]]) -> TableState:
    """Fold effective ``events`` from an empty table, knowing every correction in advance.

    Raises:
        TableError: an event is refused once the corrections apply (names it and why).
    """
    state = TableState(settings, corrections=corrections_of(events))
    for index, event in enumerate(events, start=1):
        try:
            state = _apply(state, event)
        except TableError as exc:
            if any(e.get("type") == "correct" for e in events[index:]) or event.get("type") == "correct":
                raise TableError("with this correction event {index} ({event_type}) would be refused: "
                                 "{reason}", index=index, event_type=event.get("type"),
                                 reason=exc.phrase) from exc
            raise
    return state


def _undo(state: TableState) -> TableState:
    """Cancel the latest effective event: refold from the last snapshot before it."""
    if not state.effective:
        raise TableError("there is nothing to undo")
    target = state.effective.prefix(len(state.effective) - 1)
    if state.effective[-1].get("type") == "correct":
        return _refold(state.initial_settings, list(target))
    start = state.snapshots.upto(len(target))
    if start is not None:
        base = state.snapshots[start].copy()
        base.snapshots = state.snapshots.before(start)
    else:
        start = 0
        base = TableState(state.initial_settings, corrections=state.corrections)
    for event in target[start:]:
        base = _apply(base, event)
    return base


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
