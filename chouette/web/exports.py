"""Exports of a night (score sheet as HTML and CSV, ledger CSV, logs as JSON) and the import
of a night's export. Organizers and admins only: the exports name every player's money."""

from __future__ import annotations

import sys
from typing import Any

import click
from flask import Blueprint, Response, flash, make_response, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from chouette.services import base, exports
from chouette.web.auth import role_required
from chouette.web.htmx import render_page, see_other
from chouette.web.nights import get_night
from chouette.web.tables import get_table

#: ``cli_group=None``: the commands are ``flask --app app export-night`` and ``import-night``.
bp = Blueprint("exports", __name__, cli_group=None)


class ImportForm(FlaskForm):
    """Upload a night export (JSON)."""

    file = FileField(_l("Night export (JSON)"), validators=[FileRequired(_l("Choose the file to import."))])


def download(body: str, mimetype: str, filename: str) -> Response:
    """A file to save, named, never cached by a shared cache."""
    response = make_response(body)
    response.mimetype = mimetype
    if mimetype.startswith("text/"):
        response.charset = "utf-8"  # type: ignore[attr-defined]  # gone in Werkzeug 3: the mimetype says utf-8
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/nights/<int:night_id>/exports")
@role_required("organizer")
def index(night_id: int) -> BaseResponse:
    """What can be exported from a night, with the links."""
    night = get_night(night_id, for_change=True)
    return render_page("exports/index.html", "exports/_export_links.html", night=night)


@bp.get("/nights/<int:night_id>/score-sheet")
@role_required("organizer")
def score_sheet(night_id: int) -> BaseResponse:
    """The night's score sheet, paper-style, to print (one table per page)."""
    night, sheets = exports.score_sheet(get_night(night_id, for_change=True).id)
    return render_page("exports/score_sheet.html", "exports/_score_sheet.html", night=night,
                       sheets=sheets, result_words=exports.result_words)


@bp.get("/nights/<int:night_id>/score-sheet.csv")
@role_required("organizer")
def score_sheet_csv(night_id: int) -> Response:
    """The score sheet as CSV."""
    night = get_night(night_id, for_change=True)
    return download(exports.score_sheet_csv(night.id), "text/csv",
                     exports.night_filename(night, "score-sheet.csv"))


@bp.get("/nights/<int:night_id>/ledger.csv")
@role_required("organizer")
def ledger_csv(night_id: int) -> Response:
    """The night's ledger as CSV, one row per player per game."""
    night = get_night(night_id, for_change=True)
    return download(exports.ledger_csv(night.id), "text/csv",
                     exports.night_filename(night, "ledger.csv"))


@bp.get("/nights/<int:night_id>/night.json")
@role_required("organizer")
def night_json(night_id: int) -> Response:
    """The whole night (every table's settings and log) as JSON, re-importable."""
    night = get_night(night_id, for_change=True)
    return download(exports.to_json(exports.night_export(night.id)), "application/json",
                     exports.night_filename(night, "night.json"))


@bp.get("/tables/<int:table_id>/log.json")
@role_required("organizer")
def table_json(table_id: int) -> Response:
    """One table's log in the replay format (``flask --app app replay FILE``)."""
    table = get_table(table_id, for_change=True)
    filename = f"table-{table.id}-log.json"
    return download(exports.to_json(exports.table_export(table.id)), "application/json", filename)


@bp.route("/nights/import", methods=["GET", "POST"])
@role_required("organizer")
def import_night() -> BaseResponse | tuple[str, int]:
    """Upload a night export: a new night with its tables, every event checked by the rules."""
    # A night's export may be larger than an ordinary form; the limit is this page's own.
    request.max_content_length = exports.MAX_IMPORT_BYTES + 64 * 1024
    status = 200
    errors: list[str] = []
    try:
        form = ImportForm()
        submitted = form.is_submitted()
        valid = form.validate_on_submit()
    except RequestEntityTooLarge:
        form = ImportForm(formdata=None)
        submitted, valid = True, False
        errors.append(_("The file is too large (at most %(size)d MB).",
                        size=exports.MAX_IMPORT_BYTES // (1024 * 1024)))
        status = 413
    if valid:
        try:
            data = exports.read_night_export(form.file.data.read(exports.MAX_IMPORT_BYTES + 1))
            night = exports.import_night(data, current_user)
        except exports.ImportRefused as error:
            errors.append(str(error))
            status = 413 if isinstance(error, exports.ImportTooLarge) else 422
        else:
            flash(_("Night %(name)s imported with %(count)d tables.", name=night.name,
                    count=len(night.tables)), "success")
            return see_other("nights.show", night_id=night.id)
    elif submitted and status == 200:
        status = 422
    form.form_errors.extend(errors)
    context: dict[str, Any] = {"form": form}
    return render_page("exports/import.html", "exports/_import_form.html", status=status, **context)


# --------------------------------------------------------------------------- commands


@bp.cli.command("export-night")
@click.argument("night_id", type=int)
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True),
              help="Write to this file instead of the standard output.")
def export_night_command(night_id: int, output: str | None) -> None:
    """Write night NIGHT_ID (settings and every table's log) as JSON."""
    try:
        text = exports.to_json(exports.night_export(night_id))
    except base.NotFound as error:
        raise click.ClickException(str(error)) from error
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
        click.echo(f"night {night_id} written to {output}", err=True)
    else:
        sys.stdout.write(text)


@bp.cli.command("import-night")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def import_night_command(path: str) -> None:
    """Import the night export in PATH as a new night (refused whole if any event is)."""
    with open(path, "rb") as handle:
        raw = handle.read(exports.MAX_IMPORT_BYTES + 1)
    try:
        night = exports.import_night(exports.read_night_export(raw), None)
    except exports.ImportRefused as error:
        raise click.ClickException(f"{path}: {error}") from error
    click.echo(f"night {night.id} imported: {night.name}, {len(night.tables)} tables")
