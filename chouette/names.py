"""Names as people read them: one spelling, one key, nothing invisible.

A name is stored as the tables spell it (``display_name``: NFC, whitespace collapsed to single
spaces, trimmed) and compared by its key (``name_key``: that spelling case folded), so "Cy ",
"cy" and "CY" are one name and "Zoe  Two" is seated, listed and matched as "Zoe Two".
Standard library only: the models and the services use it alike.
"""

from __future__ import annotations

import unicodedata


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
