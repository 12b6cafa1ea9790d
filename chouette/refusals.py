"""The rules' refusals in the reader's language.

The pure packages raise their refusals as an English template with named parameters
(``TableError("{name} is not at this table", name=name)``, see ``chouette.engine.errors``);
:func:`say` looks the template up in the catalog and fills it in. A parameter that is itself a
phrase (a reason inside a reason) is said the same way; a parameter that is a word of the
rules (an answer, an offer, a side of the board) is translated by its name; any other
parameter (players' names, numbers, what was typed) is put in as it is.
"""

from __future__ import annotations

from flask_babel import gettext, lazy_pgettext
from flask_babel.speaklater import LazyString

from chouette.engine.errors import Phrase

# The words of the rules, by the name of the parameter that carries them. A player's name is
# never one of these parameters, so a player called "Take" keeps their name.
ANSWERS = {  # an answer or a cube action, as a verb: "there is no double to {answer}"
    "take": lazy_pgettext("answer", "take"),
    "drop": lazy_pgettext("answer", "drop"),
    "beaver": lazy_pgettext("answer", "beaver"),
    "raccoon": lazy_pgettext("answer", "raccoon"),
    "double": lazy_pgettext("answer", "double"),
}
WORDS: dict[str, dict[str, LazyString]] = {
    "answer": ANSWERS,
    "action": ANSWERS,
    # The offer waiting on a cube, with its article: "{kind} by the box to 4".
    "kind": {
        "double": lazy_pgettext("offer", "double"),
        "beaver": lazy_pgettext("offer", "beaver"),
        "raccoon": lazy_pgettext("offer", "raccoon"),
    },
    # What needs a name (an event's field), or a side of a position.
    "what": {
        "player": lazy_pgettext("name of", "player"),
        "cube": lazy_pgettext("name of", "cube"),
        "giver": lazy_pgettext("name of", "giver"),
        "taker": lazy_pgettext("name of", "taker"),
        "mover": lazy_pgettext("side of the board", "mover"),
        "opponent": lazy_pgettext("side of the board", "opponent"),
    },
}


# Refusals a club reads in its own words. The rules' own message names the position by its ID
# and the log's event by its number (for the log, the replay and the tests: ``str(error)``);
# at the table the players see the board and the history, so they read these instead.
CLUB_WORDS: dict[str, Phrase] = {
    "illegal move {move!r} with {hi}-{lo} in position {position_id}: {reason}":
        Phrase("{move} cannot be played with {hi}-{lo}: {reason}"),
    "the game in position {position_id} is not finished":
        Phrase("the game in that position is not finished"),
    "with this correction event {index} ({event_type}) would be refused: {reason}":
        Phrase("with this correction a later action of the table would be refused: {reason}"),
}


def say(error: BaseException) -> str:
    """The refusal ``error`` in the request's language; ``str(error)`` when it has no template.

    The web layer's own refusals (a ``TableError(_("..."))`` already translated) pass through
    unchanged: their template is the translated sentence and has no parameters.
    """
    template = getattr(error, "template", None)
    params = getattr(error, "params", None)
    if not isinstance(template, str) or not isinstance(params, dict):
        return str(error)
    return say_phrase(Phrase(template, **params))


def say_phrase(phrase: Phrase) -> str:
    """One template and its parameters in the request's language (in the club's words)."""
    club = CLUB_WORDS.get(phrase.template)
    text = gettext(club.template if club is not None else phrase.template)
    if not phrase.params:
        return text
    return text.format(**{key: _parameter(key, value) for key, value in phrase.params.items()})


def _parameter(key: str, value: object) -> object:
    if isinstance(value, Phrase):
        return say_phrase(value)
    words = WORDS.get(key)
    if words is not None and isinstance(value, str) and value in words:
        return str(words[value])
    return value
