"""What every template may use: the member's role checks, money, the htmx settings."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import get_locale
from flask_login import current_user

from chouette.point_words import points_text, points_words
from chouette.services.sheet import answer_fixes, line_words
from chouette.web import house_rules
from chouette.web.auth import has_role
from chouette.web.catalog import translations
from chouette.web.forms import PostForm
from chouette.web.qr import qr_svg


def init_app(app: Flask) -> None:
    """Register the template globals and filters."""
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
        newstyle=True,
    )

    @app.context_processor
    def globals_for_templates() -> dict[str, Any]:
        """``can(role)``, ``post_form``, ``current_locale()``, ``preset_name(key)``, ``qr_svg(url)``."""
        return {
            "can": lambda role: has_role(current_user, role),
            "post_form": PostForm,
            "current_locale": lambda: str(get_locale() or "en"),
            "preset_name": lambda key: str(house_rules.PRESET_NAMES.get(key, key)),
            "qr_svg": qr_svg,
        }

    app.add_template_filter(house_rules.money, "money")
    # Points as the club writes them, a deal's fraction included: +3, -1.5 (services.points).
    app.add_template_filter(points_text, "points")
    app.jinja_env.globals.update(points_words=points_words)
    # The score sheet's words, shared by the printable sheet and the table's history.
    app.jinja_env.globals.update(line_words=line_words, answer_fixes=answer_fixes,
                                 rule_changes=house_rules.change_words)
