"""Error handling, once for the whole app: domain refusals, CSRF, 403/404/500 pages."""

from __future__ import annotations

from flask import (
    Flask,
    Response,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from chouette.engine.errors import RulesError
from chouette.extensions import db
from chouette.refusals import say
from chouette.services.base import NotFound, ServiceError
from chouette.table import TableError
from chouette.web.auth import is_safe_next
from chouette.web.htmx import is_htmx


def flash_fragment(message: str, category: str = "error", status: int = 422) -> Response:
    """The flash fragment alone, swapped over ``#flash`` by htmx whatever the request's target."""
    response = make_response(render_template("_flash.html", messages=[(category, message)]), status)
    response.headers["HX-Retarget"] = "#flash"
    response.headers["HX-Reswap"] = "outerHTML"
    response.vary.add("HX-Request")
    return response


def _back() -> str:
    """Where to send the browser after a refused action: the page it came from, if ours."""
    referrer = request.referrer or ""
    host = request.host_url.rstrip("/")
    if referrer.startswith(host + "/"):
        path = referrer[len(host):]
        if is_safe_next(path):
            return path
    return url_for("main.home")


def handle_service_error(error: ValueError) -> BaseResponse:
    """A refused use-case (or a move or table action the rules refuse): nothing was written;
    tell the user why, in the rules' own words.

    htmx gets 422 and the flash fragment; a browser's form gets the message flashed and a 303
    back; a page it asked for is a 422 page with the reason.
    """
    db.session.rollback()
    if isinstance(error, NotFound):
        return error_page(404, str(error))
    if is_htmx():
        return flash_fragment(say(error))
    if request.method in ("GET", "HEAD"):
        # A page that cannot be drawn says why: sent back, it would be asked for again (the
        # home page of a table whose stored log is refused would redirect to itself).
        return error_page(422, say(error))
    flash(say(error), "error")
    return redirect(_back(), 303)


def handle_csrf_error(error: CSRFError) -> BaseResponse:
    """A form without its token (or an expired one): refuse, say what to do."""
    message = _("This form has expired or did not come from this site. Reload the page and try again.")
    if is_htmx():
        return flash_fragment(message, status=400)
    return error_page(400, message)


def error_page(status: int, message: str | None = None) -> Response:
    """The error page for ``status`` (the flash fragment for htmx)."""
    if is_htmx():
        defaults = {
            403: _("Your role does not allow this. Ask an organizer or the club's admin."),
            404: _("There is nothing at this address."),
            500: _("Nothing was changed. Try again; if it happens again, tell the organizer."),
        }
        return flash_fragment(message or defaults.get(status, _("The request could not be handled.")), status=status)
    template = f"errors/{status}.html" if status in (403, 404, 500) else "errors/error.html"
    return make_response(render_template(template, status=status, message=message), status)


def handle_http_error(error: HTTPException) -> BaseResponse:
    """403, 404 and friends as pages of the site."""
    if error.code is None or error.code < 400 or error.response is not None:
        return error.get_response()
    if error.code in (401, 405):
        return error.get_response()
    return error_page(error.code)


def handle_internal_error(error: Exception) -> Response:
    """500: roll back whatever the request was writing, show a calm page."""
    db.session.rollback()
    return error_page(500)


def init_app(app: Flask) -> None:
    """Register the handlers."""
    # Domain refusals: the services', and the pure rules' (a view may let them propagate).
    for refusal in (ServiceError, TableError, RulesError):
        app.register_error_handler(refusal, handle_service_error)
    app.register_error_handler(CSRFError, handle_csrf_error)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(500, handle_internal_error)
