"""Real browser tests: Playwright drives Debian's chromium against a live server on 127.0.0.1.

Never `playwright install`: the browser is /usr/bin/chromium (`make test` installs it via apt).
Every request to another host is aborted, so no test depends on the network (the CDN copy of
htmx fails and the page falls back to the vendored file, as on the club's flaky wifi).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from werkzeug.serving import make_server

from app import create_app
from chouette import push
from chouette.cli import upgrade_database
from chouette.extensions import db
from tests.factories import PASSWORD, TEST_HASH

# An expectation waits up to 15 s for the page to come to it (Playwright's default is 5 s): a
# page that follows its table does so in a fraction of a second on a quiet machine, but CI's
# two cores also run chromium and the server, and a page that never comes to it still fails.
# How fast pages follow is measured by benchmarks/, never by these tests.
expect.set_options(timeout=15_000)

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
OFF_SITE = re.compile(r"^(?!http://127\.0\.0\.1[:/]).*")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's chromium, headless, with nothing phoning home."""
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


class LiveServer:
    """The app served by werkzeug on 127.0.0.1 in a daemon thread, on its own SQLite file."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> None:
        """Start serving."""
        self._thread.start()

    def stop(self) -> None:
        """Stop serving (ending the push streams) and close the database connections."""
        push.hub(self.app).close()
        self._server.shutdown()
        self._thread.join(10)
        with self.app.app_context():
            db.session.remove()
            db.engine.dispose()


def start_live_server(tmp_path: Path, **config: Any) -> LiveServer:
    """A fresh app (database built by the migrations, as `make run` does) on a free port."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'live.sqlite'}",
            "SECRET_KEY": "browser-tests",
            "PASSWORD_HASH_METHOD": TEST_HASH,
            **config,
        }
    )
    with app.app_context():
        upgrade_database()
    server = LiveServer(app)
    server.start()
    return server


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The app on a free port, stopped after the test."""
    server = start_live_server(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def context(context: BrowserContext) -> BrowserContext:
    """pytest-playwright's context, cut off from every host but the live server."""
    context.route(OFF_SITE, lambda route: route.abort())
    context.set_default_timeout(10_000)
    return context


def signed_in_device(browser: Browser, base: str, username: str, viewport: dict[str, int], *,
                     url: str | None = None, init_script: str | None = None, **options: Any) -> Page:
    """One device: a browser context of its own (cut off from every host but the live
    server; ``options`` for ``new_context``) at ``viewport``, ``init_script`` run in each of
    its pages, ``username`` signed in (the home page greets them), then ``url`` opened if
    given."""
    context = browser.new_context(viewport=viewport, **options)  # type: ignore[arg-type]
    context.route(OFF_SITE, lambda route: route.abort())
    context.set_default_timeout(10_000)
    if init_script is not None:
        context.add_init_script(init_script)
    page = context.new_page()
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Hello, "))).to_be_visible()
    if url:
        page.goto(url)
    return page


def sign_in(page: Page, base: str, username: str) -> None:
    """Sign ``username`` in on ``page`` through the login form and wait for the home page."""
    page.goto(f"{base}/auth/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def play_as(app: Flask, username: str, table_id: int, *events: dict[str, Any]) -> None:
    """Play ``events`` at the table one command at a time, as the member ``username``."""
    from chouette.models import Member
    from chouette.services import commands, tables

    with app.app_context():
        actor = db.session.scalar(db.select(Member).where(Member.username == username))
        for event in events:
            commands.play(table_id, tables.last_seq(table_id), event, actor)
        db.session.commit()


def table_state(app: Flask, table_id: int) -> Any:
    """The table as the server sees it (read through the commands, like any request)."""
    from chouette.services import table_states

    with app.app_context():
        state = table_states.load_play(table_id).state
        db.session.commit()
        return state


def board_point(page: Page, table_id: int | str, n: int, svg: str = "svg.board:visible") -> Locator:
    """The on-roll player's point ``n`` (25 = bar, 0 = their tray) on the table's drawing
    shown (a phone gets an upright one)."""
    board = f"#board-{table_id} {svg}"
    if n == 25:
        return page.locator(f"{board} g.bar-area")
    if n == 0:
        return page.locator(f"{board} g.tray[data-point='0']")
    return page.locator(f"{board} g.point[data-point='{n}']")


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.fixture
def screenshot(page: Page):
    """Save a full-page screenshot under test-artifacts/ (gitignored)."""

    def save(name: str, target: Page | None = None) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        (target or page).screenshot(path=str(path), full_page=True)
        return path

    return save


@dataclass(frozen=True)
class SeatedTable:
    """A table on Olga's night, its players seated, as ``seated_table`` made it."""

    id: int
    night_id: int
    organizer_id: int
    #: Each player's username, and Olga's.
    logins: dict[str, str]


def seated_table(app: Flask, players: Sequence[str], events: Sequence[dict[str, Any]], *,
                 night_name: str = "Friday", table_name: str = "Upstairs", **settings: Any) -> SeatedTable:
    """Olga's night ``night_name`` with one table ``table_name`` (``settings`` over the
    defaults): ``players`` joined and ordered (box first), then ``events`` played by Olga."""
    from chouette.services import commands, tables
    from tests.factories import gen_member, gen_night, gen_table

    with app.app_context():
        olga = gen_member("organizer", name="Olga")
        members = {name: gen_member("player", name=name) for name in players}
        night = gen_night(opened_by_id=olga.id, name=night_name)
        table_id = gen_table(night, created_by_id=olga.id, name=table_name, settings={
            **tables.TABLE_DEFAULTS, **settings}).id
        for event in ([{"type": "join", "player": n} for n in players]
                      + [{"type": "order", "players": list(players)}, *events]):
            commands.play(table_id, tables.last_seq(table_id), event, olga)
        made = SeatedTable(table_id, night.id, olga.id,
                           {"Olga": olga.username, **{n: m.username for n, m in members.items()}})
        db.session.commit()
    return made


def online_table(app: Flask, players: Sequence[str], events: Sequence[dict[str, Any]],
                 **settings: Any) -> SeatedTable:
    """Olga's "Online Friday" night with one table played online (``settings`` over the
    defaults): ``players`` joined and ordered (box first), then ``events`` played by Olga."""
    return seated_table(app, players, events, night_name="Online Friday", table_name="Online",
                        play="online", **settings)
