"""The chouette club manager: the Flask application factory."""

from __future__ import annotations

from typing import Any

from flask import Flask


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, commands."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(SECRET_KEY="dev-only-change-me")
    if config:
        app.config.update(config)

    from chouette.cli import init_app as init_cli

    init_cli(app)

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
