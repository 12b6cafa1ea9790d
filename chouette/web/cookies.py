"""The session cookie is sent back only when it changed, or on a whole page's load.

Flask re-sends a permanent session's cookie with every answer, to slide its expiry. A page
holds several requests at once (its push streams, its fragments), each answered with the
cookie as it was when that request began: one that ends after a form's answer (which put a
flash, "You sit at the table.", in the cookie) writes the older cookie back, and the flash
is lost. So only an answer that changed the session, or a whole page loaded (one at a time
per tab: it is what slides the expiry, as a member moves between pages), sends the cookie.
"""

from __future__ import annotations

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin


class ChangedOnlySessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, re-sent only when changed or on a page's load."""

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        return bool(session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]
                    and is_page_load())


def is_page_load() -> bool:
    """A whole page asked for by the browser itself: not htmx's fragment, not a stream."""
    return (request.method == "GET" and "HX-Request" not in request.headers
            and "text/event-stream" not in request.accept_mimetypes.values())


def init_app(app: Flask) -> None:
    app.session_interface = ChangedOnlySessionInterface()
