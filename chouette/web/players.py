"""Players: the list of everyone who played, and a player's page (results, roles, cube
decisions, and their balance game by game as an SVG chart drawn here)."""

from __future__ import annotations

from collections import Counter

from flask import Blueprint, abort
from flask_babel import format_date
from flask_babel import gettext as _
from flask_login import current_user, login_required
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from chouette.extensions import db, read_only
from chouette.services import players as players_service
from chouette.services.players import PlayerHistory
from chouette.web import privacy
from chouette.web.charts import MAX_DOTS, ChartPoint, balance_chart
from chouette.web.house_rules import money
from chouette.web.htmx import render_page

bp = Blueprint("players", __name__, url_prefix="/players")


@bp.get("/")
@login_required
def index() -> BaseResponse:
    """Everyone with games in the ledger, with their games and lifetime money (the money only
    where the privacy rule lets the reader see it)."""
    players = privacy.player_list(current_user, players_service.player_names())
    return render_page("players/index.html", "players/_player_list.html",
                       players=players)


@bp.get("/<path:name>")
@login_required
def show(name: str) -> BaseResponse:
    """A player's page: lifetime and per-night results, roles, decisions, the chart; their
    money only to whoever may see it (``chouette.web.privacy``): their games are not secret,
    their money is."""
    # Read without the write lock (loading the signed-in member began a locking transaction);
    # the service stores the facts it folded in a short transaction of its own.
    db.session.commit()
    read_only()
    history = players_service.player_history(name)
    if not history.found:
        abort(404)
    show_money = privacy.may_see_money_of(current_user, history.name)
    return render_page("players/show.html", "players/_player.html", history=history,
                       chart=chart_of(history) if show_money else None,
                       currency=main_currency(history), show_money=show_money)


def main_currency(history: PlayerHistory) -> str:
    """The currency of most of the player's games (the chart's)."""
    counts = Counter(game.currency for game in history.games)
    return counts.most_common(1)[0][0] if counts else "EUR"


def chart_of(history: PlayerHistory) -> Markup | None:
    """The balance chart of the player's games in their main currency."""
    currency = main_currency(history)
    games = [g for g in history.games if g.currency == currency]
    if not games:
        return None
    # Each point's tooltip only when the chart draws a dot per game (formatting is not free).
    labelled = len(games) <= MAX_DOTS
    points = [
        ChartPoint(g.balance, _("%(night)s, %(table)s, game %(game)d: %(amount)s (balance %(balance)s)",
                                night=g.night, table=g.table, game=g.game,
                                amount=money(g.cents, currency), balance=money(g.balance, currency))
                   if labelled else "")
        for g in games
    ]
    marks: list[tuple[int, str]] = []
    for index, game in enumerate(games):
        if index == 0 or games[index - 1].night_id != game.night_id:
            marks.append((index, format_date(game.date, "short")))
    final = games[-1].balance
    return balance_chart(
        points,
        title=_("Balance of %(name)s, game by game", name=history.name),
        description=_("%(count)d games from %(first)s to %(last)s; balance after the last game: %(amount)s.",
                      count=len(games), first=format_date(games[0].date, "medium"),
                      last=format_date(games[-1].date, "medium"), amount=money(final, currency)),
        money=lambda cents: money(cents, currency),
        marks=marks,
    )
