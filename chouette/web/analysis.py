"""GNU Backgammon's analysis pages: a player's error rates (the night, the season, a trend over
nights), a night's and a season's table of players, a night's games decision by decision and
its worst five drawn on the board.

Privacy as the money's (``chouette.web.privacy``), with the club's own setting: a member sees
their own analysis, organizers and admins everyone's, and every signed-in member everyone's when
the club opens the analysis (``ANALYSIS_VISIBILITY = members``, apart from ``MONEY_VISIBILITY``:
a club may open the one and keep the other private).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, redirect, request, url_for
from flask_babel import format_date
from flask_babel import gettext as _
from flask_login import current_user, login_required
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from chouette.analysis import runner
from chouette.engine import Position, XgidFields
from chouette.extensions import db, read_only
from chouette.models import Night
from chouette.services import analysis, identity, seasons
from chouette.web.auth import has_role
from chouette.web.board import board_context
from chouette.web.board_cubes import CubeView
from chouette.web.charts import ChartPoint, balance_chart
from chouette.web.errors import error_page
from chouette.web.htmx import render_page
from chouette.web.seasons import get_season

bp = Blueprint("analysis", __name__, url_prefix="/analysis")
XGID_OWNER = {"centre": 0, "on_roll": 1, "opponent": -1}


def _reading() -> None:
    db.session.commit()
    read_only()


def visibility() -> str:
    """The club's rule for the analysis: ``private`` or ``members`` (``chouette.config``)."""
    return str(current_app.config.get("ANALYSIS_VISIBILITY", "private"))


def sees_everyones_analysis(member: Any) -> bool:
    """Whether ``member`` sees every player's analysis: an organizer or admin, or any
    signed-in member when the club chose ``members``."""
    if not getattr(member, "is_authenticated", False):
        return False
    return visibility() == "members" or has_role(member, "organizer")


def may_see_analysis_of(member: Any, name: str) -> bool:
    """Whether ``member`` sees ``name``'s analysis: their own (a member's rows carry the current
    name), or everyone's."""
    if sees_everyones_analysis(member):
        return True
    return bool(getattr(member, "is_authenticated", False)) and member.name == name


def _may_see(name: str) -> bool:
    return may_see_analysis_of(current_user, name)


def _everyone() -> bool:
    return sees_everyones_analysis(current_user)


@bp.app_context_processor
def _helpers() -> dict[str, Any]:
    """``may_see_analysis(name)`` for the pages that link to a player's analysis."""
    return {"may_see_analysis": lambda name: may_see_analysis_of(current_user, name)}


def _unavailable() -> bool:
    """Nothing analysed here and no gnubg to do it: the pages say the analysis is not available."""
    return not runner.available() and not analysis.has_analysis()


@bp.get("/players/<path:name>")
@login_required
def player(name: str) -> BaseResponse:
    """A player's analysis: the night's and the season's rates, decisions, a trend over nights."""
    _reading()
    member = identity.member_by_name(name)
    if member is not None and member.name != name:  # a former name: the member's page now
        return redirect(url_for("analysis.player", name=member.name,
                                night=request.args.get("night", type=int)))
    if not _may_see(name):
        abort(error_page(403, _("Only this player and the organizers see this analysis.")))
    nights = analysis.player_nights(name, member.id if member is not None else None)
    chosen = request.args.get("night", type=int)
    night = next((n for n in nights if n.night_id == chosen), nights[-1] if nights else None)
    season = analysis.season_of(night.date) if night else None
    season_total = None
    if season is not None:
        ids = {n.id for n in seasons.season_nights(season)}
        season_total = analysis.total(name, [n for n in nights if n.night_id in ids])
    return render_page("analysis/player.html", "analysis/_player.html", name=name, nights=nights,
                       night=night, season=season, season_total=season_total,
                       chart=_trend(name, nights), unavailable=_unavailable())


def _trend(name: str, nights: list[analysis.NightFigures]) -> Markup | None:
    """The checker error rate night by night (mEMG), as the balance chart draws a series."""
    if not nights:
        return None
    points = [ChartPoint(round(n.figures.checker_rate), _(
        "%(night)s: checker %(checker)s mEMG, cube %(cube)s mEMG",
        night=format_date(n.date, "medium"), checker=f"{n.figures.checker_rate:.1f}",
        cube=f"{n.figures.cube_rate:.1f}")) for n in nights]
    marks = [(index, format_date(n.date, "short")) for index, n in enumerate(nights)]
    return balance_chart(
        points, title=_("Checker error rate of %(name)s (mEMG), night by night", name=name),
        description=_("%(count)d nights; the last: %(rate)s mEMG per unforced play.", count=len(nights),
                      rate=f"{nights[-1].figures.checker_rate:.1f}"),
        money=str, marks=marks, chart_id="analysis-trend")


def _sort() -> tuple[str, bool]:
    sort = request.args.get("sort", "checker_rate")
    return (sort if sort in analysis.SORTS else "checker_rate"), request.args.get("dir") == "desc"


def _visible_players(rows: list[analysis.Figures]) -> list[analysis.Figures]:
    return rows if _everyone() else [r for r in rows if _may_see(r.name)]


@bp.get("/nights/<int:night_id>")
@login_required
def night(night_id: int) -> BaseResponse:
    """A night's analysis: every player's figures (sortable), each game's decisions, the worst five."""
    _reading()
    found = db.session.get(Night, night_id)
    if found is None:
        abort(404)
    sort, descending = _sort()
    rows = _visible_players(analysis.players_of([night_id], sort, descending))
    games = analysis.night_games(night_id)
    names = None if _everyone() else {current_user.name}
    shown = [analysis.JudgedGame(g.table, g.table_id, g.number,
                                 [d for d in g.decisions if names is None or d.get("player") in names])
             for g in games]
    labels = {(g.table_id, g.number): _labels(g) for g in games}  # the whole game's players
    worst = [_drawn(game, decision, index, labels[(game.table_id, game.number)]) for index, (game, decision)
             in enumerate(analysis.worst(shown, 5, names), start=1)]
    return render_page("analysis/night.html", "analysis/_night.html", night=found, rows=rows,
                       sort=sort, descending=descending, games=[g for g in shown if g.decisions],
                       worst=worst, unavailable=_unavailable())


def _drawn(game: analysis.JudgedGame, decision: dict[str, Any], index: int,
           labels: dict[str, str]) -> dict[str, Any]:
    """A decision drawn on the board with every member's cube as the table's page draws them
    (on the rail and in the list of cubes), its Position ID and XGID beside it."""
    position = Position.from_id(str(decision["position_id"]))
    dice = tuple(decision["dice"]) if decision.get("dice") else None
    side = "box" if decision.get("side") == "box" else "team"
    answer = decision.get("kind") == "answer"
    # An answer's position is the first doubler's, on roll: the other side's, except for the
    # doubler's own answer to a beaver (level 1).
    on_roll = ("team" if side == "box" else "box") if answer and decision.get("level", 0) != 1 else side
    value = int(decision.get("value") or 1)
    fields = XgidFields(cube_log2=value.bit_length() - 1, cube_owner=XGID_OWNER[str(decision.get("owner"))],
                        dice="D" if answer else f"{dice[0]}{dice[1]}" if dice else "00",
                        crawford_jacoby=1 if decision.get("jacoby") else 0)
    board = board_context(f"worst-{index}", position, bottom=side, on_roll=on_roll,
                          dice=(dice[0], dice[1]) if dice else None, cubes=_cubes(decision),
                          labels=labels)
    return {"game": game, "decision": decision, "board": board, "position_id": position.id,
            "xgid": position.xgid(fields)}


def _cubes(decision: dict[str, Any]) -> list[CubeView]:
    """Each member's cube when the decision was made (an analysis stored before they were kept:
    the decision's own cube)."""
    rows = decision.get("cubes")
    if rows:
        return [CubeView(member=str(c["member"]), value=int(c["value"]), owner=c.get("owner"),
                         status=str(c.get("status") or "live"), offered=c.get("offered"),
                         to_answer=c.get("to_answer"), offer_kind=str(c.get("offer_kind") or "double"))
                for c in rows]
    owner = {"centre": None, "on_roll": decision.get("side"), "opponent": (
        "team" if decision.get("side") == "box" else "box")}.get(str(decision.get("owner")))
    return [CubeView(member=str(decision.get("cube") or decision.get("player")),
                     value=int(decision.get("value") or 1), owner=owner)]


def _labels(game: analysis.JudgedGame) -> dict[str, str]:
    """The names on the rail: the box's player, and the team's first player of the game."""
    found = {"box": _("Box"), "team": _("Team")}
    for side in ("box", "team"):
        name = next((d.get("player") for d in game.decisions if d.get("kind") == "move"
                     and d.get("side") == side), None)
        if name:
            found[side] = str(name)
    return found


@bp.get("/seasons/<int:season_id>")
@login_required
def season(season_id: int) -> BaseResponse:
    """A season's analysis: every player's figures over its nights (sortable)."""
    _reading()
    found = get_season(season_id)
    sort, descending = _sort()
    ids = [n.id for n in seasons.season_nights(found)]
    rows = _visible_players(analysis.players_of(ids, sort, descending))
    return render_page("analysis/season.html", "analysis/_season.html", season=found, rows=rows,
                       sort=sort, descending=descending, unavailable=_unavailable())
