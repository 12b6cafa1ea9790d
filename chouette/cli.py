"""Flask commands: `flask --app app init-db`, `create-admin`, `demo`, `replay FILE`, `record FILE`,
`backup FILE`, `restore FILE`, `analyse FILE` (chouette.analysis)."""

from __future__ import annotations

import click
from flask import Flask, current_app
from flask_migrate import upgrade

from chouette.analysis.command import analyse_command
from chouette.analysis.worker import analysis_worker_command
from chouette.demo import DEMO_PASSWORD, DEMO_SEED, MEMBERS, DemoRefused, build_demo
from chouette.extensions import MIGRATIONS_DIR
from chouette.ops import backup_command, restore_command
from chouette.record_command import record_command
from chouette.replay import replay_command
from chouette.services import base, members


def upgrade_database() -> None:
    """Bring the current app's database to the latest migration (a fresh one is created)."""
    upgrade(directory=MIGRATIONS_DIR)


def init_app(app: Flask) -> None:
    """Register the project's commands on the app."""
    app.cli.add_command(replay_command)
    app.cli.add_command(analyse_command)
    app.cli.add_command(analysis_worker_command)
    app.cli.add_command(record_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)

    @app.cli.command("init-db")
    def init_db() -> None:
        """Create or upgrade the database to the latest migration."""
        upgrade_database()
        click.echo(f"database ready: {current_app.config['SQLALCHEMY_DATABASE_URI'].split('@')[-1]}")

    @app.cli.command("create-admin")
    @click.option("--name", prompt=True, help="The admin's display name.")
    @click.option("--username", prompt=True, help="The admin's username.")
    @click.password_option(help="The admin's password (asked twice when not given).")
    def create_admin(name: str, username: str, password: str) -> None:
        """Create an admin member (the first one, or another)."""
        try:
            member = members.create_member(name=name, username=username, password=password, role="admin")
        except base.ServiceError as error:
            raise click.ClickException(str(error)) from error
        click.echo(f"admin {member.username} created")

    @app.cli.command("demo")
    @click.option("--seed", default=DEMO_SEED, show_default=True, help="The seed of every die.")
    def demo(seed: int) -> None:
        """Build a seeded demo night (members, three tables, a decision waiting) into an empty
        database, to try the app; a database that holds members is refused and left as it is."""
        upgrade_database()
        try:
            built = build_demo(seed)
        except DemoRefused as error:
            raise click.ClickException(str(error)) from error
        click.echo(f"demo night built: {len(MEMBERS)} members, tables {', '.join(built.tables)}")
        click.echo(f"sign in as olga (organizer), ada (admin) or a player (ann, bob, cy, ...); "
                   f"password {DEMO_PASSWORD}")
        click.echo(f"waiting for an answer at /tables/{built.live_table}: {', '.join(built.waiting)}")
