"""English and Italian: the member's choice first, else the browser's; catalogs complete."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from chouette.config import TRANSLATIONS_DIR
from tests.factories import gen_member

ROOT = Path(__file__).resolve().parents[2]
PO = TRANSLATIONS_DIR / "it" / "LC_MESSAGES" / "messages.po"
MO = TRANSLATIONS_DIR / "it" / "LC_MESSAGES" / "messages.mo"


def test_browser_language_chooses_italian_for_a_visitor(app, client):
    with app.app_context():
        gen_member("admin")
    assert b"Accedi" in client.get("/auth/login", headers={"Accept-Language": "it-IT,it;q=0.9"}).data
    assert b"Sign in" in client.get("/auth/login", headers={"Accept-Language": "en-GB"}).data
    assert b'<html lang="it">' in client.get("/auth/login", headers={"Accept-Language": "it"}).data


def test_the_members_choice_beats_the_browser(app, client, login_as):
    login_as("player", locale="it")
    page = client.get("/nights/", headers={"Accept-Language": "en"})
    assert b"Serate del circolo" in page.data


def test_a_member_without_a_choice_follows_the_browser(app, client, login_as):
    login_as("player", locale=None)
    assert b"Serate del circolo" in client.get("/nights/", headers={"Accept-Language": "it"}).data
    assert b"Club nights" in client.get("/nights/", headers={"Accept-Language": "en"}).data


def test_a_member_chooses_their_language_on_their_account_page(app, client, login_as):
    login_as("player")
    assert client.post("/account", data={"locale": "it"}).status_code == 303
    assert b"Serate del circolo" in client.get("/nights/", headers={"Accept-Language": "en"}).data
    assert client.post("/account", data={"locale": "klingon"}).status_code == 422


def test_refusals_are_translated_too(app, client, login_as):
    login_as("organizer", locale="it")
    response = client.post("/nights/new", data={"name": "Venerdì", "date": "2026-11-27", "currency": "euro"})
    assert b"Un codice di tre lettere, per esempio EUR." in response.data


def test_every_message_in_the_code_has_an_italian_translation():
    """Fails when a string is added without running `make translations` and translating it."""
    method_map = [("chouette/**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "lazy_gettext": None}
    in_code = {
        message[2] if isinstance(message[2], str) else message[2][0]
        for message in extract_from_dir(str(ROOT), method_map, keywords=keywords)
        if not message[0].startswith(("chouette/engine", "chouette/table", "chouette/ledger"))
    }
    catalog = read_po(PO.open("rb"))
    translated = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id and m.string and all(m.string if isinstance(m.string, tuple) else [m.string])}
    missing = sorted(in_code - translated)
    assert not missing, (
        f"{len(missing)} interface texts have no Italian translation: {missing}. Run `make translations`, "
        "fill their msgstr in chouette/translations/it/LC_MESSAGES/messages.po, run it again."
    )


def test_the_catalog_compiles_when_its_source_is_newer(tmp_path):
    """The .mo is a build product: the app compiles it at start when the .po changed."""
    import os
    import shutil

    from chouette.config import compile_translations

    target = tmp_path / "it" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(PO, target / "messages.po")
    compile_translations(tmp_path)
    compiled = target / "messages.mo"
    def flat(catalog):
        def key(value):
            return value if isinstance(value, str) else tuple(value)

        return {key(m.id): key(m.string) for m in catalog if m.id and m.string}

    source = flat(read_po((target / "messages.po").open("rb")))
    assert flat(read_mo(io.BytesIO(compiled.read_bytes()))) == source
    os.utime(compiled, (0, 0))  # older than its source: compiled again
    compile_translations(tmp_path)
    assert compiled.stat().st_mtime > 0


def test_no_message_is_listed_twice_in_the_catalog():
    lines = PO.read_text(encoding="utf-8").splitlines()
    # A msgid under a msgctxt (the rules' words of chouette/refusals.py) is its own message.
    ids = [f"{lines[n - 1]} {line}" if n and lines[n - 1].startswith("msgctxt ") else line
           for n, line in enumerate(lines) if line.startswith("msgid ")]
    duplicates = sorted({i for i in ids if ids.count(i) > 1} - {'msgid ""'})
    assert not duplicates, f"messages.po lists these twice: {duplicates}"


# The rules' refusals: templates raised by the pure packages (chouette/refusals.py says them).
REFUSAL_KEYWORDS = ("Phrase", "Refusal", "RulesError", "NotationError", "IllegalMoveError", "FormatError",
                    "CubeError", "MatchError", "DiceError", "TableError", "SettingsError", "LedgerError")


def _refusal_templates() -> dict[tuple[str, str | None], str]:
    """Every template raised in chouette/engine, table and ledger, and the rules' words put into
    them, as (msgid, msgctxt) -> where."""
    found: dict[tuple[str, str | None], str] = {}
    for package in ("engine", "table", "ledger"):
        folder = ROOT / "chouette" / package
        keywords = dict.fromkeys(REFUSAL_KEYWORDS)
        for filename, lineno, message, _comments, context in extract_from_dir(
                str(folder), [("**.py", "python")], keywords=keywords):
            msgid = message if isinstance(message, str) else message[0]
            if msgid:
                found.setdefault((msgid, context), f"chouette/{package}/{filename}:{lineno}")
    words = extract_from_dir(str(ROOT / "chouette" / "web"), [("refusals.py", "python")],
                             keywords={"lazy_pgettext": ((1, "c"), 2)})
    for filename, lineno, message, _comments, context in words:
        found.setdefault((message if isinstance(message, str) else message[0], context),
                         f"chouette/web/{filename}:{lineno}")
    return found


def _placeholders(text: str) -> list[tuple[str, str | None, str]]:
    import string

    return sorted((name, conversion, spec or "") for _literal, name, spec, conversion
                  in string.Formatter().parse(text) if name is not None)


def test_every_refusal_of_the_rules_has_an_italian_translation():
    """Fails when a refusal template is raised in the pure packages without an Italian msgstr."""
    templates = _refusal_templates()
    assert len(templates) > 150  # the extraction found the raise sites
    catalog = read_po(PO.open("rb"))
    translated = {(m.id, m.context): m.string for m in catalog if m.id and m.string}
    missing = sorted(f"{where}: {msgid!r}" for (msgid, context), where in templates.items()
                     if (msgid, context) not in translated)
    assert not missing, (
        f"{len(missing)} refusals of the rules have no Italian translation: {missing}. Append their "
        "msgid and msgstr to chouette/translations/it/LC_MESSAGES/messages.po (or run `make translations`)."
    )


def test_every_italian_refusal_keeps_the_placeholders_of_its_template():
    catalog = read_po(PO.open("rb"))
    translated = {(m.id, m.context): m.string for m in catalog if m.id and m.string}
    wrong = sorted(f"{msgid!r} -> {translated[(msgid, context)]!r}" for msgid, context in _refusal_templates()
                   if _placeholders(msgid) != _placeholders(translated[(msgid, context)]))
    assert not wrong, f"these translations change the {{placeholders}} of their template: {wrong}"


def test_the_remembered_catalog_says_what_flask_babel_says(app):
    """``chouette.web.catalog.gettext`` (the catalog looked up once per request) gives Flask-
    Babel's translation, with the same formatting, in either language, and under
    ``force_locale``; outside any request it gives the string itself, as Flask-Babel does."""
    from flask_babel import force_locale
    from flask_babel import gettext as babel_gettext

    from chouette.web.catalog import gettext

    samples = [("Box", {}), ("%(name)s doubles you to %(value)d.", {"name": "Ann", "value": 2}),
               ("Line %(number)d", {"number": 3})]
    for language in ("it", "en"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            for text, variables in samples:
                assert gettext(text, **variables) == babel_gettext(text, **variables)
            with force_locale("en" if language == "it" else "it"):
                assert gettext("Captain") == babel_gettext("Captain")
    with app.test_request_context("/", headers={"Accept-Language": "it"}):
        # Translated: the comparisons above are between translations.
        assert gettext("Captain") == "Capitano" and gettext("Line %(number)d", number=3) == "Fila 3"
        with force_locale("en"):
            assert gettext("Captain") == "Captain"
        assert gettext("Captain") == "Capitano"
    assert gettext("Line %(number)d", number=3) == "Line 3"
