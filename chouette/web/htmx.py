"""Page or fragment: one template per fragment, included by its page, chosen per request."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from flask import Response, make_response, render_template, request, url_for
from flask_babel import get_locale
from flask_login import current_user

from chouette.caches import Lru
from chouette.web import gate


def is_htmx() -> bool:
    """True when htmx made this request (``HX-Request: true``) to swap a fragment in.

    Boosted requests want the whole page, so they do not count.
    """
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def render_page(page: str, fragment: str, status: int = 200, **context: Any) -> Response:
    """Render ``fragment`` for htmx and ``page`` (which includes it) otherwise.

    Adds ``Vary: HX-Request`` so no cache serves one in place of the other. A drawing lets
    its process's commands go first (``gate.checkpoint``) before its template.
    """
    gate.checkpoint()
    response = make_response(render_template(fragment if is_htmx() else page, **context), status)
    response.vary.add("HX-Request")
    return response


def see_other(endpoint: str, **values: Any) -> Response:
    """The answer to a successful form post: go to ``endpoint``.

    A browser gets a 303. htmx would follow a 303 inside its request and swap the whole page
    into its target, so it gets ``HX-Redirect`` instead and loads the page itself.
    """
    url = url_for(endpoint, **values)
    if is_htmx():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = url
    else:
        response = make_response("", 303)
        response.headers["Location"] = url
    response.vary.add("HX-Request")
    return response


def render_if_changed(version: str, page: str, fragment: str, *, shared: Lru | None = None,
                      drawn: Callable[[], str] | None = None, **context: Any) -> Response:
    """``render_page`` behind an ETag: ``304 Not Modified``, without rendering, while the
    client already has this ``version`` (for the fragments that screens poll).

    The ETag also covers page-or-fragment, the language and the viewer, which change the HTML.
    ``shared``: the page is the same for every viewer (no form, no token, nothing personal):
    its drawing of each version is kept in that cache (one of ``chouette.caches``) and
    served to the next viewer as it is; the first of the viewers asking at once draws it.
    ``drawn``: how to draw the fragment for this viewer (``live_shared.shared_live_html``).
    """
    viewer = "-" if shared is not None or not current_user.is_authenticated else current_user.get_id()
    key = f"{version}|{is_htmx()}|{get_locale()}|{viewer}"
    etag = hashlib.sha256(key.encode()).hexdigest()[:32]
    if etag in request.if_none_match:
        response = make_response("", 304)
    elif drawn is not None:
        response = make_response(drawn(), 200)
    elif shared is not None:
        html = shared.get_or_make(key, lambda: render_template(fragment if is_htmx() else page,
                                                               **context))
        response = make_response(html, 200)
        response.vary.add("HX-Request")
    else:
        response = render_page(page, fragment, **context)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("HX-Request")
    return response
