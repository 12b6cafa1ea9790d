"""The current language's catalog, looked up once per request, and a ``gettext`` that uses it.

Flask-Babel looks the catalog up again for every string, through several context lookups
each time (about 7 microseconds a string); a command's answer says about a hundred strings
in Python and eighty in its templates. Here the catalog is remembered beside the locale it
belongs to (about 1 microsecond a string), so a ``force_locale`` block (which sets another
locale object) gets its own. The same translations, the same formatting as Flask-Babel's
``gettext`` (``string % variables`` when there are variables).
"""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations
from flask import g, has_app_context
from flask_babel import get_translations
from flask_babel import gettext as babel_gettext


def translations() -> NullTranslations:
    """The current language's catalog (Flask-Babel's), remembered for the request."""
    ctx = g.get("_flask_babel")
    locale = getattr(ctx, "babel_locale", None)
    if locale is not None:
        remembered = getattr(ctx, "chouette_catalog", None)
        if remembered is not None and remembered[0] is locale:
            return remembered[1]
    catalog = get_translations()
    ctx = g.get("_flask_babel")
    locale = getattr(ctx, "babel_locale", None)
    if locale is not None:
        ctx.chouette_catalog = (locale, catalog)
    return catalog


def gettext(string: str, **variables: Any) -> str:
    """``string`` in the current language, formatted with ``variables``."""
    if not has_app_context():  # no request, no language: Flask-Babel's answer (the string)
        return babel_gettext(string, **variables)
    found = translations().ugettext(string)
    return found % variables if variables else found
