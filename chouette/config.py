"""Configuration: defaults, the environment, then the caller's overrides.

Settings that matter in production come from the environment:

- ``SECRET_KEY``: signs the session cookie. When it is not set, a random key is created once
  in the instance folder (``instance/secret_key``, mode 0600) and reused by every worker, so
  ``make run`` works on a fresh machine without ever running on a guessable key.
- ``DATABASE_URL``: any SQLAlchemy URL; default a SQLite file in the instance folder.
- ``SESSION_COOKIE_SECURE``: ``1`` when the app is served over HTTPS (it should be).
- ``CLUB_CURRENCY``: the currency new nights and seasons start with (three letters; EUR).
- ``MONEY_LOCALE``: how the club writes amounts, a locale such as ``it_IT`` (``1.234,50 €``)
  or ``en_US`` (``$1,234.50``); unset, amounts follow each reader's language.
- ``TRUSTED_PROXIES``: how many reverse proxies (nginx...) stand in front of the app; their
  ``X-Forwarded-For``/``-Proto``/``-Host`` are then believed (the sign-in limiter keys on the
  client's address). Default 0: the app is reached directly.
- ``MONEY_VISIBILITY``: who sees whose money (``chouette.web.privacy``). ``private`` (the
  default): a member sees their own money and the whole ledger of the nights they played;
  organizers and admins see everyone's. ``members``: every signed-in member sees everyone's.
- ``DISPLAY_MONEY``: whether the big screen shows each player's money beside their points
  (``1``, the default) or their points only (``0``).
- ``ANALYSIS_VISIBILITY``: who sees whose GNU Backgammon analysis (``chouette.web.analysis``),
  the club's own choice apart from the money's. ``private`` (the default): a member sees their
  own; organizers and admins see everyone's. ``members``: every signed-in member sees everyone's.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

#: The languages of the interface (the club's rule texts are Italian).
LANGUAGES = ("en", "it")

TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"


def compile_translations(directory: Path = TRANSLATIONS_DIR) -> None:
    """Compile each ``messages.po`` into its ``messages.mo`` when that is missing or older.

    The compiled catalogs are build products, not in git: every way of starting the app (make
    run, gunicorn, the tests) compiles what changed, so a catalog can never lag its source.
    Written through a temporary file and a rename, so two workers starting together are safe.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in directory.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as handle:
            catalog = read_po(handle)
        partial = mo.with_name(f".{mo.name}.{os.getpid()}")
        with partial.open("wb") as handle:
            write_mo(handle, catalog)
        os.replace(partial, mo)


#: Who sees whose money (``MONEY_VISIBILITY``): see ``chouette.web.privacy``.
MONEY_VISIBILITIES = ("private", "members")
#: Who sees whose analysis (``ANALYSIS_VISIBILITY``): see ``chouette.web.analysis``.
ANALYSIS_VISIBILITIES = ("private", "members")
_YES = frozenset({"1", "true", "yes", "on"})
_NO = frozenset({"0", "false", "no", "off"})


def _env_flag(name: str, default: bool = False) -> bool:
    """Read a yes/no setting from the environment."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def private_folder(path: Path) -> Path:
    """Create the folder ``path`` readable by this user only (0700), or make it so when this
    user owns it: it holds the database, its backups or the secret key."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = path.stat()
    if info.st_uid == os.getuid() and info.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def private_file(path: Path) -> Path:
    """Create ``path`` empty and readable by this user only (0600) unless it exists, so that
    what is written into it next (SQLite, a backup) is private whatever the umask. SQLite
    gives its write-ahead log and index the database file's mode."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    else:
        os.chmod(path, 0o600)  # os.open's mode is masked by the umask; never loosened by it
    return path


def instance_secret_key(instance_path: str) -> str:
    """Return the instance's persistent random secret key, creating it on first use.

    The file is created with O_EXCL so two workers starting together agree on one key.
    """
    path = Path(instance_path) / "secret_key"
    private_folder(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def default_database_url(instance_path: str) -> str:
    """The default database: a SQLite file in the instance folder (both private)."""
    private_folder(Path(instance_path))
    return "sqlite:///" + str(private_file(Path(instance_path) / "chouette.sqlite"))


def configure(app: Flask, overrides: dict[str, Any] | None = None) -> None:
    """Fill ``app.config``: defaults, then the environment, then ``overrides``."""
    overrides = overrides or {}
    app.config.from_mapping(
        # Sessions and cookies: not readable from JavaScript, not sent on cross-site posts.
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=_env_flag("SESSION_COOKIE_SECURE"),
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_SECURE=_env_flag("SESSION_COOKIE_SECURE"),
        PERMANENT_SESSION_LIFETIME=timedelta(hours=12),
        MAX_CONTENT_LENGTH=1024 * 1024,
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        # Flask-WTF: tokens last the whole club night.
        WTF_CSRF_TIME_LIMIT=12 * 3600,
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(TRANSLATIONS_DIR),
        LANGUAGES=LANGUAGES,
        # Sign-in limiter: this many failures per username and address in the window.
        LOGIN_MAX_FAILURES=5,
        LOGIN_FAILURE_WINDOW=timedelta(minutes=15),
        # How long a one-time link to set a new password works (chouette.services.account_links).
        PASSWORD_LINK_LIFETIME=timedelta(hours=24),
        # How long a player may take back their own drop, tapped by mistake, from their phone
        # while nothing came after it (chouette.services.take_back).
        DROP_TAKE_BACK=timedelta(seconds=20),
        # The scripts every page loads, vendored: no page ever waits for another host.
        HTMX_SRI="sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg",
        HTMX_VENDORED="vendor/htmx-2.0.11.min.js",
        HTMX_SSE_VENDORED="vendor/htmx-ext-sse-2.2.4.min.js",
        IDIOMORPH_VENDORED="vendor/idiomorph-ext-0.8.0.min.js",
        TRUSTED_PROXIES=0,
        CLUB_CURRENCY="EUR",
        MONEY_LOCALE=None,
        MONEY_VISIBILITY="private",
        ANALYSIS_VISIBILITY="private",
        DISPLAY_MONEY=True,
        # Push streams send the drawing itself where it is shared (chouette.web.streams).
        # Measured (benchmarks/push.py, docs/performance.md "Push"): on SQLite and on PostgreSQL
        # with two nodes alike, the streams' drawings bring every device its table sooner
        # and leave the commands more of the processor than the devices' own fetches.
        PUSH_FRAGMENTS=_env_flag("PUSH_FRAGMENTS") if os.environ.get("PUSH_FRAGMENTS", "").strip() else True,
    )
    for name in ("CLUB_CURRENCY", "MONEY_LOCALE", "MONEY_VISIBILITY", "DISPLAY_MONEY", "ANALYSIS_VISIBILITY"):
        if os.environ.get(name, "").strip():
            app.config[name] = os.environ[name].strip()
    if "SECRET_KEY" in os.environ:
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    if os.environ.get("RENDER_CONCURRENCY", "").isdigit():  # page drawings at once per process
        app.config["RENDER_CONCURRENCY"] = int(os.environ["RENDER_CONCURRENCY"])
    if os.environ.get("RENDER_NICE", "").isdigit():  # how much lower the drawings' priority is
        app.config["RENDER_NICE"] = int(os.environ["RENDER_NICE"])
    if os.environ.get("TRUSTED_PROXIES", "").isdigit():
        app.config["TRUSTED_PROXIES"] = int(os.environ["TRUSTED_PROXIES"])
    if "DATABASE_URL" in os.environ:
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    app.config.update(overrides)

    if not app.config.get("SECRET_KEY"):
        if app.config.get("TESTING"):
            app.config["SECRET_KEY"] = "testing-only-key"
        else:
            app.config["SECRET_KEY"] = instance_secret_key(app.instance_path)
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        app.config["SQLALCHEMY_DATABASE_URI"] = default_database_url(app.instance_path)
    if str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        _private_sqlite_file(str(app.config["SQLALCHEMY_DATABASE_URI"]))
        # A SQLite file never drops a connection: no test query before each request's.
        options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        options["pool_pre_ping"] = False
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    elif str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("postgresql"):
        # Each worker's threads query at once (commands, the phones' fetches after a push):
        # a pool that fits them, instead of opening and closing a server process per burst.
        # The server's max_connections must cover workers x (pool + overflow) + one push
        # listener per worker.
        options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        # A connection is tested when it has waited in the pool, not at every checkout
        # (extensions.ping_when_idle): a round trip less for every request. The pool hands
        # out the connection given back last (LIFO): the busy ones stay busy, never tested,
        # and the ones a quiet hour leaves idle are the ones tested.
        options["pool_pre_ping"] = False
        options.setdefault("pool_use_lifo", True)
        options.setdefault("pool_size", _env_int("DB_POOL_SIZE", 20))
        options.setdefault("max_overflow", _env_int("DB_MAX_OVERFLOW", 10))
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    _check_money_settings(app)
    _check_privacy_settings(app)
    if app.config.get("DICE_SEED") is not None and not app.config.get("TESTING"):
        raise ValueError("DICE_SEED: seeded dice are for tests only (with TESTING); "
                         "a club's dice are always drawn from the operating system")


def _check_privacy_settings(app: Flask) -> None:
    """``MONEY_VISIBILITY``, ``ANALYSIS_VISIBILITY`` and ``DISPLAY_MONEY``, checked at start: a
    typo must not show the club's money (or its analysis) to everyone, or hide it, without a word."""
    visibility = str(app.config.get("MONEY_VISIBILITY") or "").strip().lower()
    if visibility not in MONEY_VISIBILITIES:
        raise ValueError(f"MONEY_VISIBILITY: {app.config.get('MONEY_VISIBILITY')!r} is not one of "
                         + ", ".join(MONEY_VISIBILITIES))
    app.config["MONEY_VISIBILITY"] = visibility
    analysis = str(app.config.get("ANALYSIS_VISIBILITY") or "").strip().lower()
    if analysis not in ANALYSIS_VISIBILITIES:
        raise ValueError(f"ANALYSIS_VISIBILITY: {app.config.get('ANALYSIS_VISIBILITY')!r} is not one of "
                         + ", ".join(ANALYSIS_VISIBILITIES))
    app.config["ANALYSIS_VISIBILITY"] = analysis
    shown = app.config.get("DISPLAY_MONEY")
    if isinstance(shown, str):
        word = shown.strip().lower()
        if word not in _YES | _NO:
            raise ValueError(f"DISPLAY_MONEY: {shown!r} is not 1 (show the money on the big screen) "
                             "or 0 (points only)")
        shown = word in _YES
    app.config["DISPLAY_MONEY"] = bool(shown)


def _env_int(name: str, default: int) -> int:
    """A whole number from the environment (``default`` when unset); anything else stops the
    app at start with the setting's name."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise ValueError(f"{name}: {raw!r} is not a whole number")
    return int(raw)


def _private_sqlite_file(url: str) -> None:
    """A SQLite database file not made yet (``DATABASE_URL`` anywhere) is created private."""
    from sqlalchemy.engine import make_url

    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        path = Path(database)
        if path.parent.is_dir():
            private_file(path)


def _check_money_settings(app: Flask) -> None:
    """``CLUB_CURRENCY`` and ``MONEY_LOCALE``, checked at start: a typo stops the app with a
    clear message rather than writing every amount wrong all night."""
    from chouette.amounts import check_money_locale

    currency = str(app.config.get("CLUB_CURRENCY") or "EUR").strip().upper()
    if len(currency) != 3 or not currency.isascii() or not currency.isalpha():
        raise ValueError(f"CLUB_CURRENCY: {currency!r} is not a three-letter code such as EUR")
    app.config["CLUB_CURRENCY"] = currency
    app.config["MONEY_LOCALE"] = check_money_locale(app.config.get("MONEY_LOCALE"))
