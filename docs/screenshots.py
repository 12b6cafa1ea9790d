"""Take the README's screenshots of the seeded demo night (``flask --app app demo``).

    .venv/bin/python docs/screenshots.py [--out docs/img]

Builds the demo into a temporary SQLite database, serves it on 127.0.0.1 (a free port), and
drives Debian's chromium (``/usr/bin/chromium``, ``make system-deps``) with Playwright:
- ``table-tablet.png``: the live table on the organizer's tablet (1024x768);
- ``phone-decision.png``: a player's phone (390x844) with the box's double waiting for him;
- ``big-screen.png``: the big screen on a TV (1920x1080).
Each PNG is then reduced to a palette with ``pngquant`` when it is installed
(``apt-get install pngquant``); without it the PNGs are kept as chromium wrote them.
The same seed draws the same night: only the date differs from one run to the next.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the app and chouette import from the repository

from app import create_app
from chouette.cli import upgrade_database
from chouette.demo import DEMO_PASSWORD, build_demo

CHROMIUM = "/usr/bin/chromium"
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


def _signed_in(browser: Browser, base: str, username: str, viewport: dict[str, int], **options: object):
    """A page of a new browser context, signed in as ``username``."""
    context = browser.new_context(viewport=viewport, **options)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state("load")
    return page


def _shoot(page: Page, url: str, ready: str, path: Path) -> Path:
    """Open ``url``, wait for the ``ready`` element (the push streams never let the network
    idle), and take the viewport."""
    page.goto(url)
    page.locator(ready).first.wait_for(state="visible")
    page.evaluate("document.fonts.ready")
    page.screenshot(path=str(path))
    return path


def _optimise(path: Path) -> None:
    """Reduce a PNG to a palette with pngquant, when it is installed."""
    if shutil.which("pngquant") is None:
        print(f"{path.name}: pngquant not installed, kept as taken")
        return
    subprocess.run(["pngquant", "--force", "--skip-if-larger", "--quality", "65-90", "--strip",
                    "--output", str(path), str(path)], check=False)


def take(out: Path) -> list[Path]:
    """Build the demo, serve it and take the three screenshots into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="chouette-demo-") as folder:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'demo.sqlite'}",
                          "SECRET_KEY": "screenshots"})
        with app.app_context():
            upgrade_database()
            demo = build_demo()
        server = make_server("127.0.0.1", 0, app, threaded=True)
        base = f"http://127.0.0.1:{server.server_port}"
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        taken = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                     args=["--no-sandbox", "--disable-gpu"])
                table = f"{base}/tables/{demo.live_table}"

                tablet = _signed_in(browser, base, "olga", TABLET)
                taken.append(_shoot(tablet, table, f"#table-live-{demo.live_table}",
                                    out / "table-tablet.png"))
                phone = _signed_in(browser, base, demo.waiting[0].lower(), PHONE, is_mobile=True,
                                   has_touch=True)
                taken.append(_shoot(phone, table, f"#my-decision-{demo.live_table}",
                                    out / "phone-decision.png"))
                screen = browser.new_context(viewport=TV).new_page()
                taken.append(_shoot(screen, f"{base}/display", f"#display-table-{demo.live_table}",
                                    out / "big-screen.png"))
                browser.close()
        finally:
            server.shutdown()
            thread.join(10)
    for path in taken:
        _optimise(path)
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size // 1024} KB")
    return taken


def main() -> None:
    """Parse the arguments and take the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="where the PNGs go")
    take(parser.parse_args().out)


if __name__ == "__main__":
    main()
