"""Big screens polling a quiet night: their ``304 Not Modified`` answered before Flask.

A TV at the club asks for the display fragment every two seconds; almost every answer is
``304`` (``chouette.web.display``: the ETag covers ``services.display_version``, the address,
the language and the viewer). Even that answer costs Flask's whole request (context, session,
login, locale, hooks): a hundred screens took 15% of a core, against the 10% goal of docs/performance.md 8.

``QuietScreens`` is a WSGI middleware that remembers (the app's ``screen_etags`` cache,
``chouette.caches``), per ETag it saw the app give a screen, the display version the ETag
was made from and the headers of the answer. When the same screen (same address, language,
headers) comes back with that ETag, it reads the version again (the same single query, in an
application context) and, if it has not moved, answers the ``304`` itself with the
remembered headers. Anything else goes to Flask untouched: a request with a cookie (a
signed-in viewer: their ETag covers them), anything that is not a plain GET of a display page,
an ETag it did not see, a version that moved, a night that is gone.

It is only a shortcut: the answer it gives is the one Flask gives (the tests compare them),
and it never replays a cookie or a body.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy.engine import Engine

from chouette import caches

#: Where the display view leaves what its ETag was made from: ``(night id or None, version)``.
ENVIRON_KEY = "chouette.screen_version"
#: The headers a remembered ``304`` carries (never a cookie, a body's type or length).
KEPT_HEADERS = frozenset({"etag", "cache-control", "vary", "x-content-type-options",
                          "x-frame-options", "referrer-policy"})
#: The request's parts that may change the page, hence its ETag: they are the lookup key.
KEY_PARTS = ("PATH_INFO", "QUERY_STRING", "SCRIPT_NAME", "HTTP_HOST", "SERVER_NAME",
             "SERVER_PORT", "wsgi.url_scheme", "HTTP_ACCEPT_LANGUAGE", "HTTP_HX_REQUEST",
             "HTTP_HX_BOOSTED")
SCREEN_ETAGS = caches.declare(
    "screen_etags", 1024,
    "a screen's last answer: (night id, display version, the 304's headers) by (ETag, the "
    "request's KEY_PARTS)")

StartResponse = Callable[..., Any]


class QuietScreens:
    """The WSGI middleware (see the module's docstring); ``prefix`` is the display's path."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]],
                 prefix: str = "/display") -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.prefix = prefix
        self._known = caches.cache(SCREEN_ETAGS, app)
        #: How many polls were answered here (the tests read it; a counter, not a clock).
        self.answered = 0
        self._engine: Engine | None = None

    def _eligible(self, environ: dict[str, Any]) -> bool:
        path = environ.get("PATH_INFO", "")
        return (environ.get("REQUEST_METHOD") == "GET" and "HTTP_COOKIE" not in environ
                and "HTTP_AUTHORIZATION" not in environ
                and (path == self.prefix or path.startswith(self.prefix + "/")))

    @staticmethod
    def _key(environ: dict[str, Any], etag: str) -> tuple[Any, ...]:
        return (etag, *(environ.get(part) for part in KEY_PARTS))

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if not self._eligible(environ):
            return self.wsgi_app(environ, start_response)
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if asked:
            known = self._known.get(self._key(environ, asked))
            if known is not None and self._version(known[0]) == known[1]:
                self.answered += 1
                start_response("304 Not Modified", list(known[2]))
                return [b""]

        def remember(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            self._remember(environ, status, headers)
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, remember)

    def _remember(self, environ: dict[str, Any], status: str, headers: list[tuple[str, str]]) -> None:
        """Keep what the app answered a screen, when it is a display page with an ETag."""
        made_from = environ.get(ENVIRON_KEY)
        if made_from is None or not status.startswith(("200", "304")):
            return
        names = {name.lower() for name, _value in headers}
        if "set-cookie" in names:
            return
        etag = next((value for name, value in headers if name.lower() == "etag"), None)
        if etag is None:
            return
        kept = [(name, value) for name, value in headers if name.lower() in KEPT_HEADERS]
        self._known.put(self._key(environ, etag), (made_from[0], made_from[1], kept))

    def _version(self, night_id: int | None) -> str | None:
        """The display version now (None when the night is gone): the view's own query, on a
        connection of the app's pool, in a read-only transaction (no Flask context needed)."""
        from chouette.extensions import READ_ONLY
        from chouette.services.display import version_on

        if self._engine is None:  # in the worker, after any fork: the pool is this process's
            from chouette.extensions import db

            with self.app.app_context():
                self._engine = db.engine
        with self._engine.connect() as connection:
            return version_on(connection.execution_options(**{READ_ONLY: True}), night_id)
