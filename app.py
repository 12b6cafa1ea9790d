"""The chouette club manager: the Flask application factory."""

from __future__ import annotations

from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, error handlers, commands."""
    app = Flask(__name__, instance_relative_config=True)

    from chouette import cli, extensions, web
    from chouette.config import configure

    configure(app, config)
    extensions.init_app(app)
    web.init_app(app)
    cli.init_app(app)
    # Outermost, so everything inside (the screens' shortcut too) sees the client's address.
    if app.config["TRUSTED_PROXIES"]:
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]

    @app.get("/favicon.ico")
    def favicon() -> Any:
        """Browsers ask for it whatever the page says: the same icon as the pages name."""
        return app.send_static_file("favicon.svg")

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
