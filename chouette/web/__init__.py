"""The web layer: one blueprint per module, the error handlers, the template helpers."""

from __future__ import annotations

from flask import Flask, Response


def init_app(app: Flask) -> None:
    """Register every blueprint, the error handlers and the template helpers."""
    from chouette.web import (
        admin,
        auth,
        converters,
        cookies,
        display,
        errors,
        gate,
        inputs,
        main,
        nights,
        tables,
        templating,
    )

    converters.init_app(app)  # first: the routes below use it
    cookies.init_app(app)  # the session cookie re-sent only when it changed
    inputs.init_app(app)  # the first request hook: no control characters anywhere
    gate.init_app(app)  # a few page drawings at once per process: commands never wait
    for module in (main, auth, admin, nights, tables, display):
        app.register_blueprint(module.bp)
    from chouette.web import accounts  # own password, password links, invitations

    app.register_blueprint(accounts.bp)
    from chouette.web import money as money_pages  # the ledger, settle-up, balances

    app.register_blueprint(money_pages.bp)
    from chouette.web import exports, players  # night exports and import; player pages

    app.register_blueprint(exports.bp)
    app.register_blueprint(players.bp)
    from chouette.web import records  # game records (.mat, SGF) of board games

    app.register_blueprint(records.bp)
    # The live table: seats, cubes, dice and moves; the organizer's rules, results, undo...
    from chouette.web import play, play_organizer  # noqa: F401 - its views on play's blueprint

    app.register_blueprint(play.bp)
    from chouette.web import cube_window  # an online table's cube window and time limits

    app.register_blueprint(cube_window.bp)
    from chouette.web import matches  # head-to-head matches: opening one

    app.register_blueprint(matches.bp)
    from chouette.web import seasons  # a season's nights, settle-up, closing, exports

    app.register_blueprint(seasons.bp)
    from chouette.web import analysis  # GNU Backgammon's analysis of the board games

    app.register_blueprint(analysis.bp)
    from chouette import push
    from chouette.web import (
        streams,  # push: each table page's and screen's event stream
    )

    push.init_app(app)
    app.register_blueprint(streams.bp)
    from chouette.web import social  # a table's talk, seat requests and who is connected

    app.register_blueprint(social.bp)
    errors.init_app(app)
    templating.init_app(app)
    from chouette.web import privacy  # who sees whose money, for the templates too

    privacy.init_app(app)
    app.after_request(security_headers)
    from chouette.web.quiet_screens import (
        QuietScreens,  # the big screens' unchanged polls
    )

    screens = QuietScreens(app, app.wsgi_app)
    app.extensions["quiet_screens"] = screens
    app.wsgi_app = screens  # type: ignore[method-assign]


#: Every script, style, image and connection from the app itself; no inline script, no eval.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'self'"
)


def security_headers(response: Response) -> Response:
    """No MIME sniffing, no framing by other sites, no full URLs leaked to other sites, and a
    Content-Security-Policy: nothing runs but the app's own files."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
