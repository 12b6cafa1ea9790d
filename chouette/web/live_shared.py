"""One drawing of the live table per state, for every viewer of its kind (most phones, most
of the time), and the push stream's drawings (``pushed_drawing``).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import render_template, request
from flask_login import current_user

from chouette import push
from chouette.amounts import money_locale
from chouette.extensions import db, read_only
from chouette.services import base, deciders, table_states
from chouette.web import cube_window, gate, online_play, privacy
from chouette.web.htmx import is_htmx
from chouette.web.live import live_context
from chouette.web.live_decisions import member_double
from chouette.web.live_derived import per_state
from chouette.web.live_seats import my_seat, runs_table


def shared_live_html(played: table_states.TablePlay, *, pushed: bool = False) -> Callable[[], str] | None:
    """How to draw the live fragment for a viewer who neither runs the table nor has a decision
    of their own now but their doubles of the box (most phones, most of the time), or None for
    anyone else.

    After a push the eight phones of a table fetch the same state: only the first draws it,
    and every viewer of that state gets the very same bytes (one drawing for the players
    seated here, one for those who watch): every member's double button, hidden, with its
    decider's member id; every seat's member id. The page's own script shows the viewer's
    buttons and marks the viewer's rows (``static/js/mine.js``); htmx sends the viewer's
    CSRF token (``hx-headers``) and the table's seq (``hx-vals``); the server authorises
    every command. At a table that plays online each side sees the board from its own side
    (one drawing per side), and the player who rolls and moves now gets their own. A match
    table, the whole history (``?history=all``) and whole pages are always drawn.
    ``pushed``: for the viewer's push stream (``pushed_drawing``), not for a fetch.
    """
    table, state = played.table, played.state
    night = table.night
    if not (pushed or is_htmx()) or request.args.get("history") == "all" or state.settings.is_match:
        return None
    if runs_table(table) and table.is_open:
        return None
    me = my_seat(table.id, state)
    side = None
    if state.settings.online:
        if online_play.may_roll(table, state, me):
            return None  # the player on roll: their Roll, their board to move on
        side = online_play.my_side(state, me)
    if me is not None:
        privacy.note_played(current_user, night)  # seated here: they play this night
    mine = deciders.decisions_of(
        me, state, per_state(state, "legal", lambda: deciders.candidate_decisions(state))
    ) if me and table.is_open else []
    if not all(member_double(event) for event in mine):  # an offer to answer, an extra...
        return None
    last = state.effective[-1] if state.effective else {}
    if me is not None and last.get("type") == "drop" and last.get("cube") == me:
        return None  # their own drop, which they may take back for a few seconds (own_drop)
    show_money = privacy.may_see_night_money(current_user, night)

    seated = me is not None  # a player seated here sees what the table asks of the players

    def draw() -> str:
        return render_template("tables/_live.html",
                               **live_context(played, shared=True, seated=seated, side=side))

    key = (f"shared:{seated}:{side}:{show_money}:{money_locale()}:{table.is_open}:{table.name}:"
           f"{night.currency}:{played.matched}")  # matched: a guest's seat claimed by a new member
    return lambda: per_state(state, key, draw)


def pushed_drawing(table_id: int) -> Callable[[str], str | None]:
    """What a table's push stream sends its viewer when the table moves (``push.Hub.stream``):
    the live fragment itself (a ``fragment`` event) when the state's shared drawing is theirs
    (``shared_live_html``: the same bytes as their fetch would bring), else None (the version:
    their page fetches their own drawing, with their buttons). At a table that plays online,
    the viewer's cube window card comes first (a ``window`` event, ``cube_window.pushed_card``).

    Runs in a copy of the stream's request context (``streams._stream``): who is signed in is
    loaded again each time, as for a new request (signed out meanwhile, they get the version
    only, and their fetch is refused). It takes its turn among the process's drawings and lets
    the commands go first, as a fetch does (``gate.drawing``): the first stream of a process
    draws the state, the others take that drawing made theirs. Its loading waits at the gate
    too: a hundred streams reading the database at once would leave the commands no
    connection (measured: docs/performance.md, section 13)."""

    def make(played: table_states.TablePlay, version: str) -> str | None:
        shared = shared_live_html(played, pushed=True)
        live = None if shared is None else push.message("fragment", shared())
        if not played.state.settings.online:
            return live
        # The viewer's cube window card first: its page then fetches nothing for it.
        return (push.message("window", cube_window.pushed_card(played, version))
                + (live or push.message("changed", version)))

    return viewer_drawing(table_id, make)


def viewer_drawing(table_id: int, make: Callable[[table_states.TablePlay, str], str | None]
                   ) -> Callable[[str], str | None]:
    """A push stream's drawing for its signed-in viewer (``push.Hub.stream``'s ``draw``):
    ``make(played, version)`` with the table loaded, run in a copy of the stream's request
    context, taking its turn among the process's drawings after the commands
    (``gate.drawing``); None (the version only: the page fetches) when the viewer signed out
    meanwhile or the table is gone."""

    def draw(version: str) -> str | None:
        with gate.drawing():
            try:
                read_only(alone=True)  # on PostgreSQL, each statement alone: no BEGIN, no ROLLBACK
                if not current_user.is_authenticated:
                    return None
                try:
                    played = table_states.load_play(table_id)
                except base.NotFound:
                    return None
                return make(played, version)
            finally:
                db.session.remove()

    return draw
