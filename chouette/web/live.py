"""The live table's view model: everything ``tables/_live.html`` and the table page show.

``live_context`` builds a ``LiveTable`` from a table's state for one viewer, or for every
viewer of a shared drawing (``live_shared``): the table and who looks at it (``Viewer``), the
seats and cubes in words (``SeatsView``, ``live_seats``), what may be decided now
(``DecisionsView``, ``live_decisions``), the game on the board (``live_board``), the finished
games and the latest log lines (``HistoryView``, ``live_history``, ``live_derived``). The
views in ``chouette.web.play`` answer every command with it; the templates read its fields
by name (``LiveTable.context``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, cast

from flask import request
from flask_login import current_user
from markupsafe import Markup
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import ChouetteTable, Night
from chouette.services import chance, deciders, identity, table_states
from chouette.standings import Points, money
from chouette.table import TableState
from chouette.table.actions import may_consult
from chouette.table.game import Game
from chouette.web import gate, house_rules, log_lines, online_play, privacy
from chouette.web.htmx import is_htmx
from chouette.web.live_board import board_view, board_xgid, opening_tie
from chouette.web.live_decisions import Actions, answer_words, group_actions, my_decision, own_drop
from chouette.web.live_derived import match_players, per_state, recent_lines
from chouette.web.live_history import KINDS, correcting, history_games_html, settings_form_html
from chouette.web.live_seats import cube_rows, decider_ids, leavers, my_seat, runs_table, seat_ids, seat_rows
from chouette.web.matches import match_context


@dataclass(frozen=True)
class Viewer:
    """The table, and who looks at it."""

    table: ChouetteTable
    night: Night
    state: TableState
    seq: int
    game: Game | None
    #: the viewer runs the table (and it is open)
    runs: bool
    #: the viewer's seat name here, or None (a spectator, or a shared drawing)
    me: str | None
    #: drawn once for every viewer of its kind (``live_shared``): the page marks its own
    shared_drawing: bool
    #: at a table that plays online, the side whose view of the board this is ("box",
    #: "team"; None: the box's, numbered for the side on roll)
    side: str | None
    #: a whole page: its forms carry their seq and CSRF token (they work without JavaScript);
    #: htmx sends both otherwise (``hx-vals``, ``hx-headers``)
    plain_forms: bool
    show_money: bool
    currency: str


@dataclass(frozen=True)
class SeatsView:
    """Who sits where, their cubes and their money."""

    seat_rows: list[tuple[str, str, str]]
    #: seat name -> member id (a guest's seat is absent; in a viewer's own drawing, their seat
    #: only): the page marks the viewer's rows
    seat_ids: dict[str, int]
    cube_rows: list[dict[str, Any]]
    consult: list[str]
    points: dict[str, Points]
    cents: dict[str, int]
    guests: frozenset[str]
    leavers: list[str]
    unseated: list[str]
    to_roll: list[str]
    #: the Join card's members (for the organizers who run the table)
    members: list[str]
    last_order: Mapping[str, Any] | None


@dataclass(frozen=True)
class DecisionsView:
    """What may be decided now, by whom, and the game on the board."""

    actions: Actions
    #: the viewer's own decisions, and those waiting for the viewer, with their buttons
    mine: list[dict[str, Any]]
    my_decision: list[dict[str, Any]]
    #: what the phone vibrates for (a decision that waits, not a drop it may take back)
    decision_key: str | None
    #: in a shared drawing, member name -> member id of who decides their double
    decider_ids: dict[str, int]
    may_roll: bool
    answer_words: dict[str, str]
    match: dict[str, Any] | None
    opening_tie: Mapping[str, Any] | None
    undo_what: str | None
    board: dict[str, Any] | None
    forced_play: str | None
    passed: dict[str, Any] | None
    xgid: str | None


@dataclass(frozen=True)
class HistoryView:
    """The finished games, the latest log lines, the house-rules form, and what was posted."""

    history_games_html: Markup | str
    recent: list[dict[str, Any]]
    settings_form_html: Markup | str
    error: str | None
    typed: dict[str, str]
    join_question: dict[str, Any] | None
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class LiveTable:
    """Everything ``tables/_live.html`` shows."""

    viewer: Viewer
    seats: SeatsView
    decisions: DecisionsView
    history: HistoryView

    def context(self) -> dict[str, Any]:
        """The template's variables: every field of the four parts, by its name."""
        return {field.name: getattr(part, field.name)
                for part in (self.viewer, self.seats, self.decisions, self.history)
                for field in fields(part)}


def live_table(played: table_states.TablePlay, *, error: str | None = None,
               typed: dict[str, str] | None = None, move_value: str = "",
               shared: bool = False, seated: bool = False, side: str | None = None,
               join_question: dict[str, Any] | None = None) -> LiveTable:
    """The live table for the signed-in viewer (``shared``: for ``live_shared``, drawn for
    every viewer of its kind, nobody's own; ``seated``: there, for the players seated here;
    ``side``: there, at a table that plays online, the side whose view of the board it is;
    ``join_question``: the Join card's "Did you mean ...?", ``table_commands.NameQuestion``)."""
    gate.checkpoint()  # a phone's drawing lets its process's commands go first
    table, state = played.table, played.state
    night = table.night
    me = None if shared else my_seat(table.id, state)
    if me is not None:
        privacy.note_played(current_user, night)  # seated here: they play this night
    viewer = Viewer(table=table, night=night, state=state, seq=played.seq, game=state.game,
                    runs=runs_table(table) and table.is_open, me=me, shared_drawing=shared,
                    side=side if shared else online_play.my_side(state, me) if state.settings.online
                    else None,
                    plain_forms=not shared and not is_htmx(),
                    show_money=privacy.may_see_night_money(current_user, night),
                    currency=night.currency)
    seats = _seats(played, viewer)
    decisions = _decisions(played, viewer, seats, seated=seated, move_value=move_value)
    history = _history(played, viewer, seats, typed or {}, error, join_question)
    gate.checkpoint()
    return LiveTable(viewer, seats, decisions, history)


def _seats(played: table_states.TablePlay, viewer: Viewer) -> SeatsView:
    state = played.state
    points, cents = money(state)
    members: Sequence[str] = ()
    if viewer.runs:  # the Join card's list, read with the table (``table_states.load_play(names=True)``)
        members = (played.member_names if played.member_names is not None else
                   identity.split_names(db.session.scalar(select(identity.active_names_column(
                       db.session.get_bind().dialect.name)))))
    groups = state.order_groups
    return SeatsView(
        seat_rows=per_state(state, "seats", lambda: seat_rows(state)),
        # Every seat's member id in a shared drawing (read once per state); a viewer's own
        # drawing knows theirs (no query on a command's answer).
        seat_ids=(seat_ids(played) if viewer.shared_drawing else
                  {viewer.me: current_user.id} if viewer.me is not None else {}),
        cube_rows=cube_rows(state) if state.ordered else [],
        consult=may_consult(state) if state.ordered else [],
        points=points, cents=cents if viewer.show_money else {},
        guests=deciders.guests_of(played.table.id, state),  # marked on the seats and in the history
        leavers=leavers(state) if viewer.runs else [],
        unseated=state.waiting + [p for g in groups or [] for p in g],
        to_roll=state.waiting if groups is None else [p for g in groups if len(g) > 1 for p in g],
        members=[m for m in members if m not in state.seated],
        last_order=next((e for e in reversed(state.effective) if e.get("type") == "order_roll"), None))


def _decisions(played: table_states.TablePlay, viewer: Viewer, seats: SeatsView, *, seated: bool,
               move_value: str) -> DecisionsView:
    table, state, me, runs = played.table, played.state, viewer.me, viewer.runs
    legal = (per_state(state, "legal", lambda: deciders.candidate_decisions(state))
             if (runs or me or seated) and table.is_open else [])
    # A player's own decisions: the buttons they see (the organizer sees them all), and the
    # ones that wait for them stand at the top of the table (tables/_my_decision.html).
    mine = deciders.decisions_of(me, state, legal)
    waiting = [e for e in mine if e["type"] in deciders.WAITING_KINDS]
    decision = my_decision(table.id, state, me, waiting) if me and waiting else []
    if me and table.is_open and state.effective and state.effective[-1].get("type") == "drop":
        decision += own_drop(table.id, state, me)
    waits = [item["key"] for item in decision if item["kind"] != "take-back"]
    may_roll = online_play.may_roll(table, state, me)
    actions = group_actions(state, legal)
    return DecisionsView(
        actions=actions, mine=mine, my_decision=decision,
        decision_key=f"{table.id}:" + "|".join(waits) if waits else None,
        decider_ids=(decider_ids(state, seats.seat_ids, actions["member_doubles"])
                     if viewer.shared_drawing else {}),
        may_roll=may_roll, answer_words=answer_words(),
        match=(match_context(state, cast(dict[str, Any], actions), mine, runs, me)
               if state.settings.is_match else None),
        opening_tie=opening_tie(state),
        undo_what=(log_lines.describe(state.effective[-1], match_players(state))
                   if runs and state.effective else None),
        board=board_view(table, state, runs=runs or may_roll, move_value=move_value,
                         seq=played.seq, side=viewer.side),
        forced_play=(chance.forced_play(state) if (runs or may_roll) and state.settings.online
                     else None),
        passed=online_play.passed(state),
        xgid=board_xgid(state.game) if state.game is not None else None)


def _history(played: table_states.TablePlay, viewer: Viewer, seats: SeatsView, typed: dict[str, str],
             error: str | None, join_question: dict[str, Any] | None) -> HistoryView:
    table, state = played.table, played.state
    # The live table shows the latest games; the whole history is one click away (a night's
    # sixty games redrawn after every command would cost most of the command's time). A match
    # lists its games in its own card (tables/_match.html).
    games = "" if state.settings.is_match else history_games_html(
        table, state, seq=played.seq, runs=viewer.runs, typed=typed,
        full=request.args.get("history") == "all", show_money=viewer.show_money, error=error,
        guests=seats.guests, plain_forms=viewer.plain_forms)
    return HistoryView(
        history_games_html=games,
        recent=per_state(state, "recent", lambda: recent_lines(
            table.id, played.seq, played.generation, match_players(state))),
        settings_form_html=settings_form_html(played, typed) if viewer.runs else "",
        # A refused correction says why inside its own form (tables/_history_game.html).
        error=None if correcting(typed, state) else error,
        typed=typed, join_question=join_question, kinds=KINDS)


def live_context(played: table_states.TablePlay, **live: Any) -> dict[str, Any]:
    """``tables/_live.html``'s variables (``live_table``'s arguments)."""
    return live_table(played, **live).context()


def page_context(played: table_states.TablePlay, **live: Any) -> dict[str, Any]:
    """The table page's context: the live table, and the house-rules card when the whole page
    is drawn (an htmx answer swaps the live table only: the card would be drawn for nothing)."""
    table = played.table
    context = live_context(played, **live)
    if not is_htmx():
        context.update(house_rules.card(played.state, table.night.currency))
        context["may_run"] = runs_table(table)  # closing and reopening it (tables/_seat_actions.html)
    return context
