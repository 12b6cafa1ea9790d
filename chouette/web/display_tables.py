"""What the big screen shows of one table: its seats, its status, its board (view models).

``table_view`` reads a table's folded state (``services.table_states``) into a ``TableView``
of plain dataclasses that ``display/_table.html`` draws (``chouette.web.display``); nothing
here queries beyond that load, nor caches.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import url_for
from markupsafe import Markup

from chouette.models import ChouetteTable, Night
from chouette.point_words import points_text
from chouette.services import deciders, table_states
from chouette.standings import Points, money
from chouette.table import TableState
from chouette.table.cubes import BOX_SIDE, Extra
from chouette.table.match_rules import match_of
from chouette.table.match_rules import players as match_players
from chouette.web.board_cubes import CubeView
from chouette.web.board_svg import render_board
from chouette.web.catalog import gettext as _
from chouette.web.house_rules import money as format_money
from chouette.web.qr import qr_svg


@dataclass(frozen=True)
class SeatRow:
    """One player at a table as the screen shows them: their seat, their cube, their night so far.

    ``seat`` is ``"box"``, ``"partner"``, ``"captain"``, ``"line"`` (``place`` 1, 2... behind
    the captain; the first is next up), ``"waiting"`` (not in the rotation yet) or ``"gone"``
    (left the table). ``answer`` is what they answered to a box's double of several cubes
    (``"take"``, ``"drop"``, ``"beaver"``): the cube keeps the offer until every member has
    answered, then all the answers are applied together.
    """

    name: str
    seat: str
    place: int | None
    cube: CubeView | None
    points: Points
    cents: int
    answer: str | None = None  # their answer to the box's double while others still think
    extras: tuple[Extra, ...] = ()  # the extra cubes they took as the lone taker (docs/rules.md 2.7)
    proxy: str | None = None  # who decides for them while they are away (docs/rules.md 2.12)
    guest: bool = False  # no member of the club: their money goes to no member's balance

    @property
    def is_next(self) -> bool:
        """The first of the line: the next captain, whoever wins."""
        return self.seat == "line" and self.place == 1


@dataclass(frozen=True)
class BoardView:
    """A game on the app's board: the drawing, and who plays the light and the dark checkers."""

    svg: Markup
    box_label: str
    team_label: str


@dataclass(frozen=True)
class TableView:
    """Everything the screen shows of one table."""

    table: ChouetteTable
    night: Night
    seq: int  # the last event of the log folded
    rows: list[SeatRow]
    gone: list[SeatRow]  # players who left the table with points or money
    status: str
    board: BoardView | None
    qr: Markup
    url: str
    match: dict[str, Any] | None = None  # a head-to-head match: its length, score, Crawford
    stake_cents: int = 0  # the stake in force (the house rules may change between games)



def seat_rows(state: TableState, guests: frozenset[str] = frozenset()
              ) -> tuple[list[SeatRow], list[SeatRow]]:
    """The seated players in rotation order (box, partner, captain, line, waiting), then the
    players who left with a result tonight (``guests``: the players marked as guests)."""
    points, cents = money(state)
    game = state.game

    answers = game.box_double.answers if game is not None and game.box_double is not None else {}
    proxies = game.proxies if game is not None else {}

    def row(name: str, seat: str, place: int | None = None) -> SeatRow:
        cube = None
        if game is not None and name in game.cubes:
            cube = CubeView.from_member_cube(game.cubes[name], name)
        extras = tuple(e for e in game.extras if e.taker == name) if game is not None else ()
        return SeatRow(name, seat, place, cube, points.get(name, 0), cents.get(name, 0),
                       answers.get(name), extras, proxies.get(name), name in guests)

    rows = []
    if state.box:
        rows.append(row(state.box, "box"))
    if state.partner:
        rows.append(row(state.partner, "partner"))
    if state.captain:
        rows.append(row(state.captain, "captain"))
    elif game is not None and game.captain_left:
        # The captain dropped and left: the seat waits for the others' answers (rules 2.5).
        rows.append(SeatRow("", "captain", None, None, 0, 0))
    rows += [row(name, "line", place) for place, name in enumerate(state.line, start=1)]
    seated = {r.name for r in rows}
    rows += [row(name, "waiting") for name in state.seated if name not in seated]
    seated |= {r.name for r in rows}
    gone = [row(name, "gone") for name in state.players
            if name not in seated and (points.get(name) or cents.get(name))]
    return rows, gone


def game_number(state: TableState) -> int:
    """The number of the game in progress, or of the next one."""
    if state.game is not None:
        return state.game.number
    return state.games[-1].number + 1 if state.games else 1


def table_status(state: TableState) -> str:
    """One short line: what the table is doing now."""
    number = game_number(state)
    game = state.game
    if not state.players or not state.seated:
        return _("Waiting for players")  # none yet, or everyone left
    if not state.ordered:
        return _("Rolling for the starting order")
    if game is None and state.needs_partner():
        return _("The box is choosing a partner")
    match = match_of(state)
    if match is not None and match.is_over:
        seated = match_players(state)
        return _("%(name)s wins the match %(first)d-%(second)d",
                 name=seated[match.winner or 0] if seated else "",
                 first=max(match.scores), second=min(match.scores))
    if game is None:
        return _("Game %(number)d is about to start", number=number)
    waiting = waiting_for(state)
    if waiting:
        return _("Game %(number)d: waiting for %(names)s", number=number,
                 names=", ".join(waiting))
    if game.is_board and game.on_roll is not None:
        name = state.box if game.on_roll == "box" else game.acting_captain
        return _("Game %(number)d: %(name)s on roll", number=number, name=name)
    return _("Game %(number)d in play", number=number)


def waiting_for(state: TableState) -> list[str]:
    """Who the game waits for, each named once: members to answer the box's double or a
    beaver, the box to answer members' doubles, the holders of extra cubes doubled."""
    game = state.game
    if game is None:
        return []
    box = _("%(name)s (box)", name=state.box) if state.box else _("the box")
    if state.settings.is_match:
        box = state.box or ""
    answered = game.box_double.answers if game.box_double is not None else {}
    names: list[str] = []
    for extra in game.pending_extras:
        names.append(extra.giver if extra.cube.to_answer == BOX_SIDE else extra.taker)
    for member in game.pending:
        offer = game.cubes[member].cube.offer
        if member in answered and offer is not None and offer.kind == "double":
            continue  # their answer waits for the other members' (a single cube)
        if game.cubes[member].to_answer != "member":
            names.append(box)
        elif member in game.proxies:
            names.append(_("%(proxy)s for %(name)s", proxy=game.proxies[member], name=member))
        else:
            names.append(member)
    return list(dict.fromkeys(names))


def board_of(state: TableState) -> BoardView | None:
    """The board of a game played on the app's board, drawn for a dark screen (no rail: the
    cubes and names are in the table's list); None in scoresheet mode."""
    game = state.game
    if game is None or not game.is_board or game.position is None:
        return None
    box = state.box or ""
    svg = render_board(
        game.position,
        bottom="box",
        on_roll=game.on_roll,
        dice=game.dice,
        labels={"box": box, "team": game.acting_captain},
        rail=False,
    )
    if state.settings.is_match:
        return BoardView(svg, box, game.acting_captain)
    return BoardView(svg, _("%(name)s (box)", name=box),
                     _("%(name)s's team", name=game.acting_captain))


@lru_cache(maxsize=128)
def _qr(url: str) -> Markup:
    """A table's QR code (drawing one takes milliseconds; the URL never changes)."""
    return qr_svg(url, scale=3)


def table_view(table_id: int) -> TableView:
    """The screen's view of one table, from its folded log."""
    played = table_states.load_play(table_id)
    rows, gone = seat_rows(played.state, deciders.guests_of(table_id, played.state))
    url = url_for("tables.show", table_id=table_id, _external=True)
    return TableView(played.table, played.table.night, played.seq, rows, gone,
                     table_status(played.state), board_of(played.state), _qr(url), url,
                     screen_match(played.state), played.state.settings.stake_cents)


def screen_match(state: TableState) -> dict[str, Any] | None:
    """A match table's length, each player's score and the Crawford game (None: a chouette)."""
    match = match_of(state)
    if match is None:
        return None
    seated = match_players(state)
    return {"length": match.length, "scores": dict(zip(seated or ("", ""), match.scores, strict=True)),
            "crawford": match.crawford_game, "over": match.is_over,
            "winner": seated[match.winner] if seated and match.winner is not None else None}


def signed_money(cents: int, currency: str) -> str:
    """An amount with its sign: ``+€3.00``, ``-€1.50``, ``€0.00``."""
    text = format_money(cents, currency)
    return f"+{text}" if cents > 0 else text


def signed_points(points: Points) -> str:
    """Points with their sign (a true minus, readable from afar): ``+3``, ``−2``, ``+1.5``, ``0``."""
    text = points_text(points)
    return f"\u2212{text[1:]}" if text.startswith("-") else text
