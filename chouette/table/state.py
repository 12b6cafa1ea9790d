"""A chouette table's state: the fold of its log through the rules (docs/log-format.md 1, docs/rules.md 2).

``apply_event(state, event)`` checks one event against the current state and returns the
new state (the old one is untouched); ``fold(settings, events)`` replays a whole log, undo
events included. Both cost the same for every event however long the log: a state shares
its effective log, its games and its snapshots with the state before it
(``chouette.table.history``), so folding n events is linear in n.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from chouette.table import rules, sheet
from chouette.table.errors import LogError, TableError
from chouette.table.history import WORK, History, Snapshots
from chouette.table.settings import Settings
from chouette.table.shapes import check_shape
from chouette.table.tablestate import (  # the state's value and names, here where they were first
    MAX_NAME,
    RESERVED_NAMES,
    SNAPSHOT_VERSION,
    TableState,
    check_name,
)

__all__ = ["MAX_NAME", "RESERVED_NAMES", "SNAPSHOT_VERSION", "TableState", "apply_event", "can_resume",
           "check_name", "corrections_of", "effective_after", "effective_events", "finishes_game", "fold",
           "new_table", "resume", "resume_log"]

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
    event = check_shape(event)
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
    _apply_in_place(new, event)
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
                _apply_in_place(state, check_shape(event))
            else:
                state = apply_event(state, event)
        except TableError as exc:
            raise LogError(index, event, exc.phrase) from exc
    return state


def _apply_in_place(state: TableState, event: dict[str, Any]) -> None:
    """Apply a plain event to a state nobody else holds (the fold's own)."""
    games = len(state.games)
    WORK.events += 1
    played = as_corrected(state, event)
    game, before = state.game, sheet.before(state, played)
    rules.apply(state, played)
    sheet.note(state, game, before, played)
    state.effective.append(event)
    if state.game is None and len(state.games) > games:
        # A game just finished: keep a snapshot so later folds start from here.
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
        _apply_in_place(state, check_shape(events[index]))
    return state


def corrections_of(events: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """The corrections among effective events, per game number.

    Per game: the latest ``reason``; the latest of ``void`` and ``result``; and every cube
    answer fixed (``answers``: ``[cube, value, now]``, the latest per cube and value).
    """
    found: dict[int, dict[str, Any]] = {}
    for event in events:
        number = event.get("game")
        if event.get("type") != "correct" or not isinstance(number, int):
            continue
        entry = found.setdefault(number, {})
        entry["reason"] = event.get("reason")
        answer = event.get("answer")
        if isinstance(answer, Mapping):
            key = [answer.get("cube"), answer.get("value")]
            kept = [a for a in entry.get("answers", ()) if a[:2] != key]
            entry["answers"] = [*kept, [*key, answer.get("now")]]
            continue
        entry.pop("void", None)
        entry.pop("result", None)
        if event.get("void"):
            entry["void"] = True
        elif event.get("result") is not None:
            entry["result"] = dict(event["result"])
    return found


def as_corrected(state: TableState, event: dict[str, Any]) -> dict[str, Any]:
    """``event`` as a correction of its game says it was: a take for a drop, or a drop for a
    take, of a member's cube doubled from a value (rules 3.2). The log keeps the event as it
    was written; the fold applies it corrected, and notes that the correction found it."""
    game = state.game
    if game is None or event["type"] not in ("take", "drop") or not state.corrections:
        return event
    fixes = state.corrections.get(game.number, {}).get("answers")
    cube = game.cubes.get(event.get("cube")) if fixes else None  # type: ignore[arg-type]
    offer = cube.cube.offer if cube is not None else None
    if fixes is None or cube is None or offer is None or offer.kind != "double":
        return event
    for member, value, now in fixes:
        if member == cube.member and value == cube.value:
            state.corrections[game.number].setdefault("found", []).append([member, value])
            return {**event, "type": now}
    return event


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
