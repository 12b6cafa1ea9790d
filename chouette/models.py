"""SQLAlchemy models: persistence only. The rules live in the pure packages; the use-cases in
``chouette.services``.

Money is integer cents everywhere. Times are naive UTC (``utcnow()``).
"""

from __future__ import annotations

import datetime as dt
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flask_login import UserMixin
from sqlalchemy import (
    DDL,
    JSON,
    BigInteger,
    CheckConstraint,
    Date,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    event,
    false,
    func,
    select,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates
from sqlalchemy.types import TypeDecorator, TypeEngine

from chouette.extensions import db
from chouette.names import display_name, name_key

if TYPE_CHECKING:
    from chouette.extensions import Base as Model
else:
    Model = db.Model

ROLES = ("player", "organizer", "admin")
PAYMENT_METHODS = ("cash", "transfer", "iou")


class Cents(TypeDecorator[int]):
    """An amount of money in cents: a 64-bit integer (PostgreSQL ``bigint``; SQLite's
    ``INTEGER`` is 64-bit already). Read back as an int, sums included: PostgreSQL's
    ``SUM`` of a ``bigint`` is a ``numeric``, which the driver gives as a Decimal."""

    impl = BigInteger
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        """``bigint`` on PostgreSQL, ``INTEGER`` (64-bit there) on SQLite."""
        return dialect.type_descriptor(Integer() if dialect.name == "sqlite" else BigInteger())

    def process_result_value(self, value: Any, dialect: Dialect) -> int | None:
        """An int, whatever the driver gave."""
        return None if value is None else int(value)


def utcnow() -> datetime:
    """Now, in naive UTC (what every timestamp column stores)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Member(UserMixin, Model):
    """A club member who signs in: a player, an organizer or an admin."""

    __tablename__ = "member"
    __table_args__ = (
        CheckConstraint("role IN ('player', 'organizer', 'admin')", name="role"),
        Index("ix_member_name_key", "name_key", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # Stored in its one spelling (``names.display_name``); ``name_key`` (case folded) is
    # unique: two members never share a name, whatever the case or the spaces.
    name: Mapped[str] = mapped_column(String(80))
    name_key: Mapped[str] = mapped_column(String(80), server_default="")
    username: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default="player")
    locale: Mapped[str | None] = mapped_column(String(8))
    active: Mapped[bool] = mapped_column(default=True)
    # Bumped when the password changes or the member is deactivated: old sessions end.
    session_epoch: Mapped[int] = mapped_column(default=0)
    # At a table that plays online: a roll with one legal play plays it by itself.
    auto_forced_moves: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    @validates("name")
    def _spell_name(self, _key: str, value: str) -> str:
        """Store the name in its one spelling and keep its key beside it."""
        name = display_name(value)
        self.name_key = name_key(name)
        return name

    @property
    def is_active(self) -> bool:
        """Flask-Login: a deactivated member cannot sign in or stay signed in."""
        return bool(self.active)

    @property
    def session_token(self) -> str | None:
        """The server-side session (``MemberSession``) this object stands for, if any: set
        at sign-in and by the session loader; not a column."""
        return self.__dict__.get("_chouette_session_token")

    @session_token.setter
    def session_token(self, token: str | None) -> None:
        self.__dict__["_chouette_session_token"] = token

    def get_id(self) -> str:
        """Flask-Login's session id: the member id, the session epoch and the server-side
        session's token (signing out deletes that session: a copied cookie then opens nothing)."""
        return f"{self.id}.{self.session_epoch}.{self.session_token or ''}"

    def __repr__(self) -> str:
        return f"<Member {self.id} {self.username!r} {self.role}>"


class MemberName(Model):
    """A name a member has had (his current one included): a name's key belongs to one
    member for good, so a rename keeps his history (the tables' logs name him as he was
    called then) and another member can never take a name he had."""

    __tablename__ = "member_name"
    __table_args__ = (UniqueConstraint("member_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    name_key: Mapped[str] = mapped_column(String(80), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)

    member: Mapped[Member] = relationship()


class SeatMember(Model):
    """Which member a join event seated, for the joins written before join events carried
    the member's id (``member_id`` in the payload): matched by name once, by the migration
    "members by id". The log is append-only, so the match is kept beside it."""

    __tablename__ = "seat_member"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), index=True)


class MemberSession(Model):
    """A signed-in session, server side: signing out deletes it, and a session cookie whose
    session is gone signs nobody in. Only a hash of the cookie's token is stored."""

    __tablename__ = "member_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LoginFailure(Model):
    """One failed sign-in, kept for the limiter (shared by every worker through the DB)."""

    __tablename__ = "login_failure"
    __table_args__ = (Index("ix_login_failure_key", "username", "address", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class PasswordLink(Model):
    """A one-time link to set a new password, made by an admin or organizer for a member:
    only a hash of its token is stored; it works once and until ``expires_at``."""

    __tablename__ = "password_link"

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]

    member: Mapped[Member] = relationship(foreign_keys=[member_id])


class Invitation(Model):
    """A link to join the club: whoever opens it creates a player account, until
    ``expires_at``, at most ``max_uses`` times, unless revoked. Only its token's hash is stored."""

    __tablename__ = "invitation"
    __table_args__ = (CheckConstraint("uses >= 0 AND uses <= max_uses", name="uses"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(80), default="")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    max_uses: Mapped[int]
    uses: Mapped[int] = mapped_column(default=0)
    revoked_at: Mapped[datetime | None]


class Night(Model):
    """A club night: opened, its tables played, closed."""

    __tablename__ = "night"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    date: Mapped[dt.date] = mapped_column(Date)
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    opened_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))

    closed_by: Mapped[Member | None] = relationship(foreign_keys=[closed_by_id])
    tables: Mapped[list[ChouetteTable]] = relationship(
        back_populates="night", order_by="ChouetteTable.id"
    )

    @property
    def is_open(self) -> bool:
        """True until the night is closed."""
        return self.closed_at is None

    def __repr__(self) -> str:
        return f"<Night {self.id} {self.date} {self.name!r}>"


class NightReopening(Model):
    """An admin reopened a closed night: who, when, why, and the close it undid (who closed
    it, when). Appended to, never rewritten: the night's page lists them."""

    __tablename__ = "night_reopening"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"), index=True)
    reopened_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    reason: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))

    reopened_by: Mapped[Member | None] = relationship(foreign_keys=[reopened_by_id])
    closed_by: Mapped[Member | None] = relationship(foreign_keys=[closed_by_id])


class ChouetteTable(Model):
    """One chouette table of a night; its history is its event log."""

    __tablename__ = "chouette_table"
    __table_args__ = (UniqueConstraint("night_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    preset: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Who created it: with the night's opener and the admins, the only ones who run it.
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    # A finished table its organizer closed (``services.table_close``): off the night's list
    # of open tables and the big screen, its history kept; reopened, both are None again.
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))

    night: Mapped[Night] = relationship(back_populates="tables")

    @property
    def is_open(self) -> bool:
        """True while the table takes commands: neither it nor its night is closed."""
        return self.closed_at is None and self.night.is_open

    def __repr__(self) -> str:
        return f"<ChouetteTable {self.id} {self.name!r}>"


class TableEvent(Model):
    """One event of a table's append-only log; ``seq`` counts from 1 without gaps."""

    __tablename__ = "table_event"
    __table_args__ = (
        UniqueConstraint("table_id", "seq"),
        CheckConstraint("seq >= 1", name="seq_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"))
    seq: Mapped[int]
    type: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)

    def as_dict(self) -> dict[str, Any]:
        """The event in the log format of docs/log-format.md: ``{"type": ..., **payload}``."""
        return {"type": self.type, **self.payload}

    def __repr__(self) -> str:
        return f"<TableEvent {self.table_id}#{self.seq} {self.type}>"


#: The table log is append-only in the database itself: UPDATE and DELETE are refused.
#: (The same statements are in the migration "append-only table log".)
_NO_UPDATE_SQLITE = ("CREATE TRIGGER IF NOT EXISTS table_event_no_update BEFORE UPDATE ON table_event "
                     "BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END")
#: The triggers as the migration "append-only table log" wrote them.
APPEND_ONLY_SQLITE_FIRST = [
    _NO_UPDATE_SQLITE,
    ("CREATE TRIGGER IF NOT EXISTS table_event_no_delete BEFORE DELETE ON table_event "
     "BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END"),
]
#: Since the migration "staged imports": the events of a table that an import is still
#: staging (``ImportStage``: the table does not exist yet) may be deleted, when the import
#: gives up. (Naming ``import_stage`` rather than ``chouette_table`` keeps SQLite's
#: rebuilds of ``chouette_table`` in later migrations possible.)
APPEND_ONLY_SQLITE = [
    _NO_UPDATE_SQLITE,
    ("CREATE TRIGGER IF NOT EXISTS table_event_no_delete BEFORE DELETE ON table_event "
     "WHEN NOT EXISTS (SELECT 1 FROM import_stage WHERE import_stage.table_id = OLD.table_id) "
     "BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END"),
]
APPEND_ONLY_POSTGRESQL = [
    (
        "CREATE OR REPLACE FUNCTION table_event_append_only() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'the table log is append-only'; END $$"
    ),
    (
        "CREATE TRIGGER table_event_append_only BEFORE UPDATE OR DELETE ON table_event "
        "FOR EACH ROW EXECUTE FUNCTION table_event_append_only()"
    ),
]
for _statement in APPEND_ONLY_SQLITE:
    event.listen(TableEvent.__table__, "after_create", DDL(_statement).execute_if(dialect="sqlite"))
for _statement in APPEND_ONLY_POSTGRESQL:
    event.listen(TableEvent.__table__, "after_create", DDL(_statement).execute_if(dialect="postgresql"))


class LedgerEntry(Model):
    """One player's result for one game, written with the event that settled the game."""

    __tablename__ = "ledger_entry"
    __table_args__ = (Index("ix_ledger_entry_night_player", "night_id", "player"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), index=True)
    game: Mapped[int]
    seq: Mapped[int]
    player: Mapped[str] = mapped_column(String(80))
    # The member this row is, None for a guest: a rename rewrites ``player`` by it.
    member_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"), index=True)
    points: Mapped[int]
    # The row's points beyond the whole ``points`` when a deal made them a fraction (docs/rules.md
    # 2.12): an exact fraction as text, ``"1/2"``, ``"-3/4"`` (``services.points``); None
    # when the row's points are whole.
    points_fraction: Mapped[str | None] = mapped_column(String(40))
    cents: Mapped[int] = mapped_column(Cents)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Payment(Model):
    """Money handed from one player to another (or promised: an IOU)."""

    __tablename__ = "payment"
    __table_args__ = (
        CheckConstraint("cents > 0", name="cents_positive"),
        CheckConstraint("method IN ('cash', 'transfer', 'iou')", name="method"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int | None] = mapped_column(ForeignKey("night.id"), index=True)
    payer: Mapped[str] = mapped_column(String(80))
    payee: Mapped[str] = mapped_column(String(80))
    # The members paying and paid, None for a guest: a rename rewrites the names by them.
    payer_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"), index=True)
    payee_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"), index=True)
    cents: Mapped[int] = mapped_column(Cents)
    method: Mapped[str] = mapped_column(String(16), default="cash")
    recorded_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    # Recorded at a season's settle-up (then it has no night).
    season_id: Mapped[int | None] = mapped_column(ForeignKey("season.id"), index=True)


class PaymentVoid(Model):
    """A payment taken back (a tick made by mistake): the payment row stays, this row cancels
    it, so the payments' history is appended to and never rewritten."""

    __tablename__ = "payment_void"

    id: Mapped[int] = mapped_column(primary_key=True)
    payment_id: Mapped[int] = mapped_column(ForeignKey("payment.id"), unique=True)
    voided_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Season(Model):
    """A season: the nights of one currency between two dates, settled and closed together.

    Its nights are not stored: they are the nights whose date lies in ``first_date`` ..
    ``last_date`` and whose currency is the season's (seasons of one currency never overlap).
    """

    __tablename__ = "season"
    __table_args__ = (CheckConstraint("first_date <= last_date", name="dates_in_order"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    first_date: Mapped[dt.date] = mapped_column(Date)
    last_date: Mapped[dt.date] = mapped_column(Date)
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))

    closed_by: Mapped[Member | None] = relationship(foreign_keys=[closed_by_id])

    @property
    def is_open(self) -> bool:
        """True until the season is closed."""
        return self.closed_at is None

    def __repr__(self) -> str:
        return f"<Season {self.id} {self.first_date}..{self.last_date} {self.currency} {self.name!r}>"


class TableSnapshot(Model):
    """A table's state after exactly ``seq`` events of its log (``TableState.snapshot()``),
    written with the event that finished a game so a cold process folds only what follows.

    A cache of the log, not history: dropping every row changes no answer, and only a
    table's latest few are kept. ``version`` is the snapshot format (``SNAPSHOT_VERSION``).
    """

    __tablename__ = "table_snapshot"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"))
    seq: Mapped[int]
    version: Mapped[int]
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TableFactsRow(Model):
    """A table's facts for the player pages (``services.facts.TableFacts`` as JSON), as
    folded at ``seq`` with ``settings``: a projection of the log, recomputed when it moved.

    A cache, not history: dropping every row changes no answer. ``version`` is the facts'
    format (``services.stored_facts.FACTS_VERSION``).
    """

    __tablename__ = "table_facts"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    seq: Mapped[int]
    version: Mapped[int]
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    computed_at: Mapped[datetime] = mapped_column(default=utcnow)


class GameLineRow(Model):
    """One game of a table as the night's ledger shows it (``services.game_lines``): seats,
    cubes, result and each player's points and cents, written with the event that changed
    it, so the ledger page reads rows instead of folding the log.

    A projection of the log, valid while the table's ``GameLinesMark`` is at its last seq.
    """

    __tablename__ = "game_line"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    line: Mapped[dict[str, Any]] = mapped_column(JSON)


class GameLinesMark(Model):
    """The seq a table's ``game_line`` rows are the projection of, folded with ``settings``;
    ``version`` is their format (``services.game_lines.LINES_VERSION``). Rows whose mark is
    behind the log are folded again once, by the next page that reads them."""

    __tablename__ = "game_line_mark"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    seq: Mapped[int]
    version: Mapped[int]
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)


class ImportStage(Model):
    """A table that an import is writing on SQLite (``services.exports``), before the night
    and the table exist: their ids are taken here, so no other night or table gets them
    (``take_ids``), and the rows already written under them are found again if the import
    never ends. Deleted when the import publishes its night or gives up."""

    __tablename__ = "import_stage"

    # No foreign keys: the night and the table do not exist until the import publishes them.
    table_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    night_id: Mapped[int] = mapped_column(index=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)


def free_ids(connection: Any, model: type[Night] | type[ChouetteTable], count: int) -> list[int]:
    """``count`` new ids for nights or tables on SQLite: past every row's id and every id an
    import has taken (``ImportStage``), as SQLite would choose them were there no imports."""
    staged = ImportStage.night_id if model is Night else ImportStage.table_id
    highest = max(connection.scalar(select(func.max(model.id))) or 0,
                  connection.scalar(select(func.max(staged))) or 0)
    return list(range(highest + 1, highest + 1 + count))


class AnalysisRequest(Model):
    """A table whose board games GNU Backgammon should judge (again): written with the event
    that finished a game, an undo or a correction (``chouette.analysis.queue``). The analysis
    worker claims it with a lease (``lease_until``): a worker that dies loses its claim when the
    lease runs out, and another takes the table again. Deleted once the worker has judged the
    table at ``seq``; a later event moves ``seq`` on, and the table is judged again."""

    __tablename__ = "analysis_request"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    seq: Mapped[int]
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    lease_until: Mapped[datetime | None]
    worker: Mapped[str | None] = mapped_column(String(80))
    attempts: Mapped[int] = mapped_column(default=0)
    error: Mapped[str | None] = mapped_column(String(2000))


class GameAnalysis(Model):
    """GNU Backgammon's judgement of one board game of a table: every decision (``decisions``,
    ``judge.Judged.to_dict``) and each player's figures. ``fingerprint`` names the decisions it
    judged: a game changed by an undo or a correction is judged again, a voided one deleted.
    One row per game (the unique key): a worker that dies mid-game leaves no half a row."""

    __tablename__ = "game_analysis"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), index=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"), index=True)
    number: Mapped[int]
    fingerprint: Mapped[str] = mapped_column(String(64))
    decisions: Mapped[list[Any]] = mapped_column(JSON)
    analysed_at: Mapped[datetime] = mapped_column(default=utcnow)
    players: Mapped[list[PlayerAnalysis]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="PlayerAnalysis.name")


class PlayerAnalysis(Model):
    """One player's figures in one analysed game (errors in EMG, positive): the rows the
    player's page, the night's and the season's tables add up."""

    __tablename__ = "player_analysis"
    __table_args__ = (UniqueConstraint("game_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game_analysis.id", ondelete="CASCADE"), index=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    member_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"), index=True)
    moves: Mapped[int] = mapped_column(default=0)
    checker_error: Mapped[float] = mapped_column(Float, default=0.0)
    cube_decisions: Mapped[int] = mapped_column(default=0)
    cube_error: Mapped[float] = mapped_column(Float, default=0.0)

    game: Mapped[GameAnalysis] = relationship(back_populates="players")


# --------------------------------------------------------------------------- the table's talk


class TableMessage(Model):
    """A short message of a table's consulting channel (``services.social``): the team's
    (``team``) or the box's with the partner (``box``), in one game of the table. Kept with
    the night, never in the rules' log, never on the big screen."""

    __tablename__ = "table_message"
    __table_args__ = (Index("ix_table_message_channel", "table_id", "game", "channel", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"))
    game: Mapped[int]
    channel: Mapped[str] = mapped_column(String(8))
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"))
    author: Mapped[str] = mapped_column(String(60))  # the seat's name when it was written
    text: Mapped[str] = mapped_column(String(400))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class SeatRequest(Model):
    """A member asks to sit down at a table from their device; its runner admits or refuses
    (``services.social``). ``status``: waiting, admitted, refused."""

    __tablename__ = "seat_request"
    __table_args__ = (Index("ix_seat_request_table", "table_id", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"))
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"))
    status: Mapped[str] = mapped_column(String(10), default="waiting")
    asked_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None]
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))


class TableAdmission(Model):
    """Whether a table seats a member who asks at once (``auto``) or its runner admits each
    one; no row: the default of its kind (``services.social.admits_by_itself``)."""

    __tablename__ = "table_admission"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    auto: Mapped[bool]
    changed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)


class TablePresence(Model):
    """When a member's device last held a table's page open (its push stream), written at
    most every ``social.PRESENCE_WRITE_SECONDS``: connected while recent, away after."""

    __tablename__ = "table_presence"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)


class TurnWindow(Model):
    """An online table's clock of the decision it waits for now (``services.cube_window``): the
    turn's cube window ("double" or "roll", docs/using.md), the answers to an offer, a move.

    Not the rules' log: a "roll" answer is no event (a "double" is the log's double event).
    ``key`` names the decision waited for (another key: a new decision, its clock and answers
    start again); ``answers`` holds who said "roll" or asked to hold the roll; ``auto_roll``
    each player's auto-roll choice (absent: the default, on for the crew, off for the box and
    the captain); ``seconds`` the table's time limit for each decision (0: none) and
    ``timeout_answer`` what an unanswered offer becomes ("drop" or "take").
    """

    __tablename__ = "turn_window"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(80), default="")
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    answers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    auto_roll: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seconds: Mapped[int] = mapped_column(Integer, default=0)
    timeout_answer: Mapped[str] = mapped_column(String(8), default="drop")
