"""Names as people read them: one spelling, one key, nothing invisible.

A name is stored as the tables spell it (``display_name``: NFC, whitespace collapsed to single
spaces, trimmed) and compared by its key (``name_key``: that spelling case folded), so "Cy ",
"cy" and "CY" are one name and "Zoe  Two" is seated, listed and matched as "Zoe Two".
Standard library only: the models and the services use it alike.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable


def display_name(value: str) -> str:
    """A name in its one spelling: NFC, runs of whitespace as one space, trimmed.

    >>> display_name("  Zoe \\t Two "), display_name("Zoe\\u0308") == "Zo\\u00eb"
    ('Zoe Two', True)
    """
    return " ".join(unicodedata.normalize("NFC", value).split())


def name_key(value: str) -> str:
    """What two names must differ in to be two people: the spelling, case folded.

    >>> name_key("Cy ") == name_key("cy") == name_key("CY")
    True
    """
    return unicodedata.normalize("NFC", display_name(value).casefold())


#: How alike a typed name and a member's must be (``difflib``'s ratio of their loose keys,
#: 0 to 1) for the table to ask "Did you mean ...?" before seating a guest: one letter
#: missing, added or wrong in a name of five letters or more ("Ann Archr", "Bob Muler"),
#: two in a name of ten ("Ann Arhcer"). "Anna" and "Anne" (0.75) stay two people.
CLOSE_RATIO = 0.8


def loose_key(value: str) -> str:
    """A name as people mean it: its key without accents (NFKD, combining marks dropped), so
    "Bob Muller", "bob müller" and "BOB MÜLLER" are one name.

    >>> loose_key("Bob Müller") == loose_key("bob muller") == loose_key(" BOB  MU\\u0308LLER")
    True
    """
    decomposed = unicodedata.normalize("NFKD", display_name(value))
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def closeness(typed: str, name: str) -> float:
    """How alike two names look, 0 to 1, by their loose keys: ``difflib``'s ratio, of the
    names as written or with their words sorted ("Muller Bob" for "Bob Müller"); a name typed
    as one whole word of the other (a first name alone: "Ann" for "Ann Archer") counts as
    close (``CLOSE_RATIO``).

    >>> closeness("Ann Archr", "Ann Archer") >= CLOSE_RATIO > closeness("Zed Quill", "Ann Archer")
    True
    >>> closeness("muller bob", "Bob Müller"), closeness("Ann", "Ann Archer") == CLOSE_RATIO
    (1.0, True)
    """
    first, second = loose_key(typed), loose_key(name)
    if not first or not second:
        return 0.0
    ratio = max(difflib.SequenceMatcher(None, first, second).ratio(),
                difflib.SequenceMatcher(None, " ".join(sorted(first.split())),
                                        " ".join(sorted(second.split()))).ratio())
    if ratio < CLOSE_RATIO and " " not in first and len(first) >= 3 and first in second.split():
        return CLOSE_RATIO
    return ratio


def close_names(typed: str, names: Iterable[str], *, most: int = 3) -> list[str]:
    """The ``names`` that look like ``typed`` (``closeness`` at least ``CLOSE_RATIO``), the
    closest first (then by name), at most ``most``.

    >>> close_names("Ann Archr", ["Zed Quill", "Ann Archer", "Bob Müller"])
    ['Ann Archer']
    >>> close_names("Zed Quill", ["Ann Archer", "Bob Müller"])
    []
    """
    scored = [(closeness(typed, name), name) for name in set(names)]
    return [name for score, name in sorted(scored, key=lambda item: (-item[0], item[1]))
            if score >= CLOSE_RATIO][:most]
