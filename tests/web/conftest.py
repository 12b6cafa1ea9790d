"""Fixtures the page tests share (a module's own fixture of the same name wins)."""

from __future__ import annotations

import pytest
from flask import Flask

from chouette.models import Member
from tests.factories import gen_member, gen_night


@pytest.fixture
def organizer(app: Flask) -> Member:
    with app.app_context():
        return gen_member("organizer")


@pytest.fixture
def night_id(app: Flask) -> int:
    """The "Friday chouette" night's id."""
    with app.app_context():
        return gen_night(name="Friday chouette").id
