"""Flask command-line commands: `flask --app app init-db`, `flask --app app replay FILE`."""

from __future__ import annotations

import click
from flask import Flask

from chouette.replay import replay_command


def init_app(app: Flask) -> None:
    """Register the project's commands on the app."""
    app.cli.add_command(replay_command)

    @app.cli.command("init-db")
    def init_db() -> None:
        """Create or upgrade the database (nothing to do until persistence lands)."""
        click.echo("database ready")
