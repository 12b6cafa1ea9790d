"""Tables: settings and presets, creation, the append-only log."""


from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from chouette.extensions import db
from chouette.models import (
    AnalysisRequest,
    ChouetteTable,
    LedgerEntry,
    Member,
    TableEvent,
    TableSnapshot,
    utcnow,
)
from chouette.refusals import say
from chouette.services import identity
from chouette.services.base import (
    NightClosed,
    NotFound,
    ServiceError,
    TableChanged,
    TableClosed,
    writing,
)
from chouette.services.game_lines import Lines, write_lines
from chouette.services.night_rows import lock_for_append, lock_night, new_id
from chouette.services.points import split
from chouette.table import SNAPSHOT_VERSION, Settings, TableError
from chouette.table.settings import MAX_DECISION_SECONDS, MAX_STAKE_CENTS

# --------------------------------------------------------------------------- table settings

#: Every table setting and its default (docs/rules.md; keys from docs/log-format.md 3).
TABLE_DEFAULTS: dict[str, Any] = {
    "cube_mode": "multi",
    "stake_cents": 100,
    "per_player_stakes": False,
    "jacoby": False,
    "beavers": False,
    "raccoons": False,
    "automatic_doubles": 0,
    "all_but_one": "forced_drop",
    "all_but_one_min_players": 5,
    "extras": False,
    "partner_min_players": 8,
    "partner_share_percent": 50,
    "box_retention": "beat_captain",
    "join_position": "immediate",
    "consulting": "free",
    "same_value_same_action": False,
    "play": "club",
    "decision_seconds": 0,
    "unanswered_double": "drop",
}

#: The allowed values of the settings that are a choice.
SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "cube_mode": ("multi", "single"),
    "all_but_one": ("off", "forced_drop", "mandatory_beaver"),
    "box_retention": ("beat_captain", "net_non_negative", "net_positive"),
    "join_position": ("immediate", "after_next_rotation"),
    "consulting": ("free", "forbidden", "after_cube"),
    "play": ("club", "online"),
    "unanswered_double": ("drop", "take"),
}

#: The allowed range of the settings that are a whole number.
SETTING_RANGES: dict[str, tuple[int, int]] = {
    "stake_cents": (1, MAX_STAKE_CENTS),
    "automatic_doubles": (0, 6),
    "all_but_one_min_players": (3, 30),
    "partner_min_players": (0, 30),
    "partner_share_percent": (0, 100),
    "decision_seconds": (0, MAX_DECISION_SECONDS),
}

#: Named presets: the seeds' defaults, and two common house rules.
PRESETS: dict[str, dict[str, Any]] = {
    "club-standard": dict(TABLE_DEFAULTS),
    "single-cube-jacoby": {**TABLE_DEFAULTS, "cube_mode": "single", "jacoby": True},
    "money-night": {
        **TABLE_DEFAULTS,
        "jacoby": True,
        "beavers": True,
        "raccoons": True,
        "automatic_doubles": 1,
    },
}


def normalize_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Complete ``raw`` with the defaults and check every value.

    Raises ServiceError naming the setting when a key is unknown or a value is out of place.
    """
    if raw.get("match_length"):
        return normalize_match_settings(raw)  # a head-to-head match's table
    unknown = sorted(set(raw) - set(TABLE_DEFAULTS))
    if unknown:
        raise ServiceError(_("Unknown table setting: %(key)s.", key=", ".join(unknown)))
    settings = {**TABLE_DEFAULTS, **raw}
    for key, value in settings.items():
        default = TABLE_DEFAULTS[key]
        if key in SETTING_CHOICES:
            if value not in SETTING_CHOICES[key]:
                raise ServiceError(_("%(key)s cannot be %(value)s.", key=key, value=value))
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ServiceError(_("%(key)s is yes or no.", key=key))
        else:
            low, high = SETTING_RANGES[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ServiceError(
                    _("%(key)s is a whole number from %(low)d to %(high)d.", key=key, low=low, high=high)
                )
    if settings["raccoons"] and not settings["beavers"]:
        raise ServiceError(_("Raccoons need beavers."))
    if settings["all_but_one"] == "mandatory_beaver" and not settings["beavers"]:
        raise ServiceError(_("A mandatory beaver needs beavers."))
    # The chouette rules have the last word on what a table may be.
    try:
        Settings.from_dict(settings)
    except TableError as error:
        raise ServiceError(say(error)) from error
    return settings


def normalize_match_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The whole settings of a head-to-head match (docs/rules.md 1.8) from its length, Holland rule
    and stake (``match_length``, ``holland``, ``match_stake``, ``stake_cents``; any other
    setting must be what a match plays).

    Raises ServiceError with the reason when they make no match.
    """
    data = {**Settings.for_match(1).to_dict(), **raw}
    if data["match_stake"] == "none":
        data["stake_cents"] = 0
    elif isinstance(data["stake_cents"], bool) or not isinstance(data["stake_cents"], int) \
            or data["stake_cents"] < 1:
        raise ServiceError(_("A match played for money needs a stake."))
    try:
        settings = Settings.from_dict(data)
    except (TableError, TypeError) as error:
        raise ServiceError(say(error) if isinstance(error, TableError) else str(error)) from error
    if not settings.is_match:
        raise ServiceError(_("A match is to an odd number of points."))
    return settings.to_dict()


def preset_of(settings: Mapping[str, Any]) -> str | None:
    """The name of the preset these settings are exactly, if any."""
    for name, preset in PRESETS.items():
        if dict(settings) == preset:
            return name
    return None


# --------------------------------------------------------------------------- tables


def get_table(table_id: int) -> ChouetteTable:
    """The table with this id. Raises NotFound."""
    table = db.session.get(ChouetteTable, table_id)
    if table is None:
        raise NotFound(_("No such table."))
    return table


def create_table(
    night_id: int, *, name: str, settings: Mapping[str, Any], actor: Member
) -> ChouetteTable:
    """Add a table to an open night. Raises NotFound, NightClosed, or ServiceError
    (empty or duplicate name, unusable settings)."""
    from chouette.services.identity import refuse_unfit_name

    refuse_unfit_name(name)
    name = name.strip()
    if not name or len(name) > 60:
        raise ServiceError(_("A table needs a name (at most 60 characters)."))
    checked = normalize_settings(settings)
    with writing():
        night = lock_night(night_id, exclusive=False)
        if not night.is_open:
            raise NightClosed(_("This night is closed: no new tables."))
        taken = db.session.scalar(
            select(ChouetteTable.id).where(ChouetteTable.night_id == night.id, ChouetteTable.name == name)
        )
        if taken is not None:
            raise ServiceError(_("There is already a table called %(name)s tonight.", name=name))
        table = ChouetteTable(id=new_id(ChouetteTable), night_id=night.id, name=name, settings=checked,
                              preset=preset_of(checked), created_by_id=actor.id)
        db.session.add(table)
        db.session.flush()  # its id now (PostgreSQL's sequence), for a writing() around this one
    return table


def last_seq(table_id: int) -> int:
    """The seq of the table's latest event (0 for an empty log)."""
    return db.session.scalar(select(func.coalesce(func.max(TableEvent.seq), 0)).where(TableEvent.table_id == table_id)) or 0


def table_events(table_id: int) -> list[TableEvent]:
    """The table's whole log, in order."""
    query = select(TableEvent).where(TableEvent.table_id == table_id).order_by(TableEvent.seq)
    return list(db.session.scalars(query))


def table_log(table_id: int) -> list[dict[str, Any]]:
    """The table's log in the format of docs/log-format.md (what ``chouette.table.fold`` takes)."""
    return [event.as_dict() for event in table_events(table_id)]


@dataclass(frozen=True)
class LedgerRow:
    """One player's settlement of one game, to be written with the event that settled it
    (``points`` a fraction when a deal made it one)."""

    game: int
    player: str
    points: int | Fraction
    cents: int


def _check_events(events: Sequence[Mapping[str, Any]]) -> None:
    """Raise ServiceError unless every event is a dict with a short string ``type``."""
    if not events:
        raise ServiceError(_("Nothing to record."))
    for event in events:
        kind = event.get("type")
        if not isinstance(kind, str) or not kind or len(kind) > 32:
            raise ServiceError(_("An event needs a type."))


def _check_ledger_rows(rows: Sequence[LedgerRow]) -> None:
    """Every game's points and cents sum to zero (docs/rules.md 2.10); anything else is a bug."""
    points: dict[int, Fraction] = defaultdict(Fraction)
    cents: dict[int, int] = defaultdict(int)
    for row in rows:
        if not isinstance(row.points, int | Fraction) or not isinstance(row.cents, int):
            raise TypeError(f"ledger amounts are whole cents and exact points: {row!r}")
        points[row.game] += row.points
        cents[row.game] += row.cents
    for game, total in points.items():
        if total or cents[game]:
            raise ValueError(f"game {game} does not sum to zero: {total} points, {cents[game]} cents")


#: The snapshots kept per table: the latest serves a cold load, the older ones an undo that
#: reaches back past a game's end (further back, the log is folded whole).
SNAPSHOTS_KEPT = 3


def add_snapshots(table_id: int, snapshots: Mapping[int, Mapping[str, Any]]) -> None:
    """Add the table's snapshots (seq -> ``TableState.snapshot()``) to the session, and drop
    its snapshots older than the latest ``SNAPSHOTS_KEPT`` (a cache, not history: each
    finished game's state is some 60 KB by the end of a night).

    Call it inside the transaction that writes the events at those seqs.
    """
    if not snapshots:
        return
    at = utcnow()
    db.session.add_all(
        TableSnapshot(table_id=table_id, seq=seq, version=SNAPSHOT_VERSION, state=dict(state),
                      created_at=at)
        for seq, state in sorted(snapshots.items())
    )
    db.session.flush()
    cutoff = db.session.scalar(
        select(TableSnapshot.seq).where(TableSnapshot.table_id == table_id)
        .order_by(TableSnapshot.seq.desc()).offset(SNAPSHOTS_KEPT - 1).limit(1))
    if cutoff is not None:
        db.session.execute(delete(TableSnapshot).where(TableSnapshot.table_id == table_id,
                                                       TableSnapshot.seq < cutoff))


#: Events after which a table's board games are judged again (a finished game queues it too).
ANALYSIS_AGAIN = frozenset({"undo", "correct"})


def queue_analysis(table_id: int, seq: int) -> None:
    """Queue the table for GNU Backgammon's analysis at ``seq`` (``chouette.analysis.queue``),
    in the caller's transaction: a game that ends, an undo or a correction."""
    row = db.session.get(AnalysisRequest, table_id)
    if row is None:
        db.session.add(AnalysisRequest(table_id=table_id, seq=seq, requested_at=utcnow(), attempts=0))
    else:
        row.seq = max(row.seq, seq)
        row.requested_at = utcnow()


def append_events(
    table_id: int,
    expected_seq: int,
    events: Sequence[Mapping[str, Any]],
    actor: Member | None,
    ledger_rows: Iterable[LedgerRow] = (),
    snapshots: Mapping[int, Mapping[str, Any]] | None = None,
    lines: Lines | None = None,
) -> list[TableEvent]:
    """Append ``events`` after ``expected_seq`` (the last seq the caller folded), with the ledger
    rows they produce, the snapshots of the states they reach (seq -> the state after
    exactly that many events, for the seqs that finish a game) and the game lines they
    change (``game_lines.changed_lines``: the night's ledger reads them), in one transaction.

    The events get seqs ``expected_seq + 1 ...``. The command read its table as a reader;
    here, inside ``writing()`` (under SQLite's write lock), the seq is checked again: when
    another request appended first, the UNIQUE(table_id, seq) key refuses the insert and
    nothing is written (``TableChanged``). After the commit the pages are told
    (``writing()`` announces it).
    Raises TableChanged (re-read the table and decide again), NotFound, NightClosed,
    ServiceError on a malformed event, ValueError when a game's ledger rows do not sum to zero.
    """
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
        raise ServiceError(_("The table's position in its history is missing."))
    _check_events(events)
    rows = list(ledger_rows)
    _check_ledger_rows(rows)
    at = utcnow()
    actor_id = actor.id if actor is not None else None
    try:
        with writing(keep_loaded=True):
            # The night's row lock, shared: a close waits for this command, or this command
            # for the close and then sees the night closed (no command lands after a close).
            # The table is read afresh under that lock (closing a table takes it too).
            table, night, count, highest = lock_for_append(table_id)
            if not night.is_open:
                raise NightClosed(_("This night is closed: its tables no longer change."))
            if table.closed_at is not None:
                raise TableClosed(_("This table is closed: it no longer changes. Its organizer "
                                    "can reopen it."))
            # The unique key stops two writers at one seq (the second insert is refused); this
            # stops a caller that skipped one: n distinct seqs >= 1 whose maximum is n are
            # exactly 1..n.
            if not count == highest == expected_seq:
                raise TableChanged(table_id, expected_seq)
            written = [
                TableEvent(
                    table_id=table_id,
                    seq=expected_seq + offset,
                    type=str(event["type"]),
                    payload={key: value for key, value in event.items() if key != "type"},
                    actor_id=actor_id,
                    at=at,
                )
                for offset, event in enumerate(events, start=1)
            ]
            db.session.add_all(written)
            db.session.flush()
            ids = identity.member_ids(row.player for row in rows)  # a member's rows carry their id
            db.session.add_all(
                LedgerEntry(
                    night_id=table.night_id,
                    table_id=table_id,
                    game=row.game,
                    seq=written[-1].seq,
                    player=row.player,
                    points=split(row.points)[0],
                    points_fraction=split(row.points)[1],
                    cents=row.cents,
                    member_id=ids.get(row.player),
                    at=at,
                )
                for row in rows
            )
            if snapshots:
                if not set(snapshots) <= {event.seq for event in written}:
                    raise ValueError(f"snapshots {sorted(snapshots)} are not at the seqs written")
                add_snapshots(table_id, snapshots)
            if lines is not None:
                write_lines(table_id, expected_seq, expected_seq + len(events), table.settings, lines)
            if snapshots or any(event.get("type") in ANALYSIS_AGAIN for event in events):
                queue_analysis(table_id, expected_seq + len(events))
    except IntegrityError as error:
        raise TableChanged(table_id, expected_seq) from error
    return written
