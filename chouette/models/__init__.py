"""SQLAlchemy models: persistence only. The rules live in the pure packages; the use-cases in
``chouette.services``. Money is integer cents everywhere; times are naive UTC (``utcnow()``).

One module per subject; this package imports every model, so that SQLAlchemy (and Alembic's
``env.py``, through ``db.metadata``) knows them all, and ``from chouette.models import Member``
reaches any of them.
"""

from __future__ import annotations

from chouette.models.analysis import AnalysisRequest, GameAnalysis, PlayerAnalysis
from chouette.models.base import Cents, Model, utcnow
from chouette.models.imports import ImportStage, free_ids
from chouette.models.members import (
    ROLES,
    Invitation,
    LoginFailure,
    Member,
    MemberName,
    MemberSession,
    PasswordLink,
    SeatMember,
)
from chouette.models.money import PAYMENT_METHODS, LedgerEntry, Payment, PaymentVoid, Season
from chouette.models.nights import (
    APPEND_ONLY_POSTGRESQL,
    APPEND_ONLY_SQLITE,
    APPEND_ONLY_SQLITE_FIRST,
    ChouetteTable,
    Night,
    NightReopening,
    TableEvent,
)
from chouette.models.projections import GameLineRow, GameLinesMark, TableFactsRow, TableSnapshot
from chouette.models.room import SeatRequest, TableAdmission, TableMessage, TablePresence, TurnWindow

__all__ = [
    "APPEND_ONLY_POSTGRESQL",
    "APPEND_ONLY_SQLITE",
    "APPEND_ONLY_SQLITE_FIRST",
    "PAYMENT_METHODS",
    "ROLES",
    "AnalysisRequest",
    "Cents",
    "ChouetteTable",
    "GameAnalysis",
    "GameLineRow",
    "GameLinesMark",
    "ImportStage",
    "Invitation",
    "LedgerEntry",
    "LoginFailure",
    "Member",
    "MemberName",
    "MemberSession",
    "Model",
    "Night",
    "NightReopening",
    "PasswordLink",
    "Payment",
    "PaymentVoid",
    "PlayerAnalysis",
    "Season",
    "SeatMember",
    "SeatRequest",
    "TableAdmission",
    "TableEvent",
    "TableFactsRow",
    "TableMessage",
    "TablePresence",
    "TableSnapshot",
    "TurnWindow",
    "free_ids",
    "utcnow",
]
