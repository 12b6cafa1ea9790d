"""One check of every request's input before any view or database sees it: no control
characters (a NUL byte, ...) in the address, the query, the form's fields or the uploaded
files' names, except tab, line feed and carriage return in a query's or a field's value (a
text area's lines). Nor any invisible character (zero-width, bidi marks and overrides, ...:
``controls.first_invisible``), which makes a name look like another one, except in a password
(a secret nobody reads; any character is the member's choice). Such a request is refused with
400 and a message; nothing is read or written.

It runs first of all the request hooks (before the CSRF check, which parses the form too), so
it also gives the night import its larger body limit before anyone parses that form.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Flask, request
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from chouette.controls import CONTROL, code_point, first_control, first_invisible

#: Endpoints whose form may be larger than MAX_CONTENT_LENGTH, and their limit.
LARGER_BODIES = {"exports.import_night"}


def _inputs() -> Iterator[tuple[str | None, str, bool]]:
    """Everything the request carries as text: (its form field or None for the address, the
    text, whether tab/LF/CR are fine there: in values, not in the path or names)."""
    yield None, request.path, False
    for key, values in request.args.lists():
        yield None, key, False
        for value in values:
            yield None, value, True
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    try:
        form, files = request.form, request.files
    except RequestEntityTooLarge:
        return  # the body is refused anyway (413), by the view or the error handler
    for key, values in form.lists():
        yield key, key, False
        for value in values:
            yield key, value, True
    for key, uploads in files.lists():
        for upload in uploads:
            yield key, key, False
            yield key, upload.filename or "", False


def refuse_control_characters() -> BaseResponse | None:
    """400 when any input holds a control character; None lets the request go on."""
    if request.endpoint in LARGER_BODIES:
        from chouette.services import exports

        request.max_content_length = exports.MAX_IMPORT_BYTES + 64 * 1024
    for field, text, lines_ok in _inputs():
        char = first_control(text, lines_ok=lines_ok)
        invisible = None if char is not None or _is_secret(field) else first_invisible(text)
        if char is None and invisible is None:
            continue
        from chouette.web.errors import error_page

        # The field is named (printably), the value never echoed.
        where = (_("the address") if field is None
                 else _("the field %(field)s", field=CONTROL.sub("?", field)[:40]))
        if char is not None:
            return error_page(400, _("A control character (%(code)s) is not allowed in %(where)s. "
                                     "Nothing was changed.", code=code_point(char), where=where))
        return error_page(400, _("An invisible character (%(code)s) is not allowed in %(where)s: "
                                 "it makes a name look like another. Nothing was changed.",
                                 code=code_point(invisible or "?"), where=where))
    return None


def _is_secret(field: str | None) -> bool:
    """A password field's value: any printable character is allowed there."""
    return field is not None and "password" in field.lower()


def init_app(app: Flask) -> None:
    """Run the check before every other request hook."""
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_control_characters)
