"""One command at the live table, from the posted form to the answer (``chouette.web.play``
and ``chouette.web.play_organizer`` hold the views).

Every action is one POST carrying the ``seq`` the page was rendered at. ``command`` loads the
table as a reader, checks who may post, parses the form into one event of the log format
(the view's ``build``), hands it to ``commands.play`` (which writes it inside
``services.base.writing()``: the seq is checked again under the lock there, and the pages are
told after the commit) and answers with the live fragment (htmx, ``HX-Trigger:
table-changed``) or a 303 back to the table page. A page that is out of date gets 409 and the
table as it is now, but for a decision that stands on its own (an answer, a member's double,
an extra, a partnership: docs/rules.md 2.5), which is taken while what it decides still
waits; a refusal of the rules gets 422 with the reason, and what was typed stays in the form.
A refused command has written nothing (``writing()`` rolled it back) and the answer is drawn
as a reader. The context those answers are drawn with is built in ``chouette.web.live``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from flask import abort, request
from flask_login import current_user
from werkzeug.wrappers import Response as BaseResponse

from chouette.engine import RulesError
from chouette.refusals import say
from chouette.services import base, chance, commands, cube_window, deciders
from chouette.table import TableError, TableState
from chouette.web.catalog import gettext as _
from chouette.web.errors import error_page
from chouette.web.htmx import is_htmx, render_page, see_other
from chouette.web.live import page_context
from chouette.web.live_seats import my_seat as _me

MAX_FIELD = 200  # longest text a field may carry (names, moves, ids, reasons)


class BadInput(ValueError):
    """A form that cannot be an action (garbage dice, an oversized field): 422, nothing written."""


class Refused(BadInput):
    """A refusal said to anyone who may post the form, a seated player included (a typed roll
    at a table that plays online): 422 with the reason, nothing written."""


class NameQuestion(Exception):
    """A name typed at "Join the table" close to a member's: the Join card asks "Did you mean
    ...?" before a guest is seated (``near_names.members_to_ask``); nothing is written."""

    def __init__(self, typed: str, members: list[str], guest: bool) -> None:
        super().__init__(typed)
        self.question = {"typed": typed, "members": members, "guest": guest}


# --------------------------------------------------------------------------- loading


def load(table_id: int) -> commands.TablePlay:
    """The table and its state (404 when there is no such table); for an organizer, with the
    members' names their Join card lists, in the same query."""
    try:
        return commands.load_play(table_id, names=deciders.is_organizer(current_user))
    except base.NotFound:
        abort(404)


def field(name: str, default: str = "") -> str:
    """A text field, stripped; an oversized one is refused."""
    value = request.form.get(name, default)
    if len(value) > MAX_FIELD:
        raise BadInput(_("That field is too long (at most %(count)d characters).", count=MAX_FIELD))
    return value.strip()


def die(value: str) -> int:
    """A die typed by hand: a whole number from 1 to 6."""
    value = value.strip()
    if not value.isdigit() or not 1 <= int(value) <= 6:
        raise BadInput(_("A die is a number from 1 to 6, not %(value)s.", value=value[:10] or "…"))
    return int(value)


def posted_seq() -> int | None:
    """The seq the page was rendered at (form, or the query string of the board's form)."""
    raw = request.form.get("seq") or request.args.get("seq") or ""
    return int(raw) if raw.isdigit() and len(raw) < 10 else None


def settled(table_id: int, played: commands.TablePlay) -> commands.TablePlay:
    """An online table whose time limit ran out decides what it makes first (the unanswered
    roll, the table's rule for unanswered doubles: ``cube_window.settle``), then the command
    is judged on the table as that left it."""
    if not cube_window.overdue(played):
        return played
    with contextlib.suppress(base.ServiceError):  # written, or nothing (rolled back)
        cube_window.settle(table_id, current_user)
    return load(table_id)


# --------------------------------------------------------------------------- the fragment


def live_response(played: commands.TablePlay, status: int = 200, *, changed: bool = False,
                  **live: Any) -> BaseResponse:
    """The live fragment for htmx, the whole table page otherwise."""
    response = render_page("tables/show.html", "tables/_live.html", status=status,
                           **page_context(played, **live))
    if changed:
        response.headers["HX-Trigger"] = "table-changed"
    return response


# --------------------------------------------------------------------------- one command


def command(table_id: int, build: Callable[[TableState], dict[str, Any] | list[dict[str, Any]]],
            *, player_may: bool = False, keep: tuple[str, ...] = (),
            then: Callable[[commands.TablePlay], dict[str, Any] | None] | None = None
            ) -> BaseResponse:
    """Check the role, build the event from the form (or the events an organizer's shortcut
    writes at once: ``commands.play_all``), play it, answer.

    ``player_may``: a player seated at the table may post it when it is their own decision
    (``commands.authorize`` decides); a form from them that is no decision at all is not
    theirs either (403, like someone else's).
    ``keep``: the fields to give back to the form when the action is refused.
    ``then``: the event that follows by itself from the table the command left, if any
    (``forced_play_after_roll``), written next as the same member's command.
    """
    played = settled(table_id, load(table_id))
    runs = commands.may_run(current_user, played.table)
    if not runs and (not player_may or _me(table_id, played.state) is None):
        abort(403)
    typed = {name: request.form.get(name, "")[:MAX_FIELD] for name in keep}
    move_value = typed.get("move", "")
    seq = posted_seq()
    if seq is None:
        return live_response(played, 400, error=_("This page is out of date: reload it."), typed=typed)
    try:
        event = build(played.state)
    except NameQuestion as asked:
        return live_response(played, typed=typed, join_question=asked.question)
    except (BadInput, TableError, RulesError) as refused:
        if not runs and not isinstance(refused, Refused):  # not even a decision, so not theirs
            return error_page(403, _("That is not your decision: players make their own "
                                     "decisions at the table, and the organizer runs it."))
        return live_response(played, 422, error=say(refused), typed=typed, move_value=move_value)
    try:
        if isinstance(event, list):
            after = commands.play_all(table_id, seq, event, current_user, loaded=played)
        else:
            after = commands.play(table_id, seq, event, current_user, loaded=played)
        following = then(after) if then is not None else None
        if following is not None:
            after = followed(after, following)
    except base.TableChanged as changed:
        return live_response(load(table_id), 409, error=str(changed))
    except deciders.NotAllowed as refused:
        return error_page(403, str(refused))
    except (BadInput, TableError, RulesError, base.ServiceError) as refused:
        # Shown on the table as it is now: a decision from an older page (docs/rules.md 2.5: each
        # answer stands on its own) is refused for what changed since (the cube answered).
        shown = played if seq == played.seq else load(table_id)
        return live_response(shown, 422, error=say(refused), typed=typed, move_value=move_value)
    if is_htmx():  # the table as this command left it (the state is the one just written)
        return live_response(after, changed=True)
    return see_other("tables.show", table_id=table_id)


def followed(after: commands.TablePlay, event: dict[str, Any]) -> commands.TablePlay:
    """``after`` with ``event`` played on it (a command's own follow-up); the table as
    ``after`` left it if the follow-up is refused (the first command stands)."""
    try:
        played = commands.play(after.table.id, after.seq, event, current_user, loaded=after)
    except (base.ServiceError, TableError, RulesError):
        return after
    return replace(played, written=(*after.written, *played.written))


def forced_play_after_roll(after: commands.TablePlay) -> dict[str, Any] | None:
    """The move that follows a roll by itself: at a table that plays online, the one legal
    play of the player who rolled for their own side, if they asked for that on their account
    page (``Member.auto_forced_moves``)."""
    state = after.state
    if not state.settings.online or not getattr(current_user, "auto_forced_moves", False):
        return None
    if deciders.match_mover(state) != _me(after.table.id, state):
        return None
    forced = chance.forced_play(state)
    return {"type": "move", "move": forced} if forced is not None else None
