"""`flask --app app replay FILE`: fold a table log and print its summary as JSON."""

from __future__ import annotations

import click


@click.command("replay")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def replay_command(path: str) -> None:
    """Replay the table log in PATH and print the summary object."""
    raise click.ClickException("replay is not implemented yet")
