"""What every template may use: the member's role checks, money, the htmx settings."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import get_locale
from flask_login import current_user

from chouette.web import house_rules
from chouette.web.auth import has_role
from chouette.web.forms import PostForm
from chouette.web.qr import qr_svg


def init_app(app: Flask) -> None:
    """Register the template globals and filters."""

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
