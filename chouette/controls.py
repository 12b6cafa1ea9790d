"""Control characters in what a club types or uploads: found, so they can be refused.

No name, field, address or import ever holds a control character (Unicode category Cc: NUL
and the rest of C0, DEL, C1). PostgreSQL refuses a NUL in text (a 500 if it got that far),
SQLite stores it, and neither is anything a person means to type. The one exception is what
a multi-line text area sends: tab, line feed and carriage return are allowed in form values
and in an import's strings (a name with one is then collapsed to a single space by the rules).

A name (of a member, a guest, a night, a table, a season, in a form or an import) holds no
invisible character either (``first_invisible``: zero-width, bidi marks and overrides, ...):
such a name looks exactly like another one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

#: Every control character (category Cc).
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: The control characters a text area may send: not refused in form values and imports.
LINE_CONTROLS = frozenset("\t\n\r")


def first_control(text: str, *, lines_ok: bool = False) -> str | None:
    """The first control character of ``text`` (tab, LF and CR skipped when ``lines_ok``).

    >>> first_control("Nul\\x00Guy"), first_control("two\\nlines", lines_ok=True)
    ('\\x00', None)
    """
    for match in CONTROL.finditer(text):
        if not (lines_ok and match.group() in LINE_CONTROLS):
            return match.group()
    return None


#: Characters that show nothing, or turn the text around them, and look like another name:
#: zero-width spaces and joiners, the direction marks, embeddings, overrides and isolates,
#: the byte-order mark, the soft hyphen (category Cf, "format"), the line and paragraph
#: separators (Zl, Zp), and the letters that print blank (the Hangul fillers, the combining
#: grapheme joiner). "A\u200bnn" looks exactly like "Ann" on a ledger.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Zl", "Zp"})
BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u3164\uffa0")


def first_invisible(text: str) -> str | None:
    """The first character of ``text`` that is invisible or reorders text (see above).

    >>> first_invisible("A\u200bnn"), first_invisible("Zo\u00eb"), first_invisible("\u202eevil")
    ('\u200b', None, '\u202e')
    """
    for char in text:
        if char in BLANK_LETTERS or (ord(char) >= 0xAD and unicodedata.category(char) in INVISIBLE_CATEGORIES):
            return char
    return None


def first_unfit_in_name(text: str) -> str | None:
    """The first character a name may not hold: a control character (tab, LF and CR are
    whitespace, collapsed in a name) or an invisible one.

    >>> first_unfit_in_name("Nul\\x00Guy"), first_unfit_in_name("A\\u200bnn"), first_unfit_in_name("Ann")
    ('\\x00', '\\u200b', None)
    """
    return first_control(text, lines_ok=True) or first_invisible(text)


def code_point(char: str) -> str:
    """How a refusal names the character: ``U+0000``."""
    return f"U+{ord(char):04X}"


def strings_in(data: Any) -> Iterator[tuple[str, str]]:
    """Every string of a JSON value, keys included, with where it is (``tables[0].name``).

    >>> list(strings_in({"tables": [{"name": "T"}]}))
    [('tables', 'tables'), ('tables[0].name', 'name'), ('tables[0].name', 'T')]
    """
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:  # no recursion: an upload may nest as deep as the JSON parser allows
        where, value = stack.pop()
        if isinstance(value, str):
            yield where, value
        elif isinstance(value, dict):
            items = []
            for key, inner in value.items():
                path = f"{where}.{key}" if where else str(key)
                if isinstance(key, str):
                    yield path, key
                items.append((path, inner))
            stack.extend(reversed(items))
        elif isinstance(value, list):
            stack.extend(reversed([(f"{where}[{index}]", inner) for index, inner in enumerate(value)]))
