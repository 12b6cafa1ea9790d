"""Points as the club writes them, a deal's fraction included (docs/rules.md 2.12, issue 25 item 6):
``+3``, ``-1.5``, ``+0.75``, and ``1 point``, ``1.5 points`` in the reader's language.

The numbers are exact fractions (``fractions.Fraction``) or ints, never floats; their
decimals are written with a point in every language, as the deal form and the log take them.
"""

from __future__ import annotations

from fractions import Fraction

from flask_babel import ngettext


def points_text(points: int | Fraction, signed: bool = True) -> str:
    """Points as the club writes them: ``+3``, ``-1.5``, ``+0.75``; a fraction with no short
    decimal as a fraction (``+5/6``). ``signed`` puts ``+`` before a gain.

    >>> points_text(Fraction(3, 2)), points_text(-4), points_text(0), points_text(Fraction(5, 6))
    ('+1.5', '-4', '0', '+5/6')
    >>> points_text(Fraction(-3, 4), signed=False)
    '-0.75'
    """
    value = Fraction(points)
    sign = "-" if value < 0 else "+" if value > 0 and signed else ""
    magnitude = abs(value)
    for places in range(5):
        scaled = magnitude * 10 ** places
        if scaled.denominator == 1:
            whole, rest = divmod(int(scaled), 10 ** places)
            return f"{sign}{whole}" + (f".{rest:0{places}d}" if places else "")
    return f"{sign}{magnitude.numerator}/{magnitude.denominator}"


def points_words(points: int | Fraction | float | str) -> str:
    """An amount of points in words, singular or plural as the language has them: ``1
    point``, ``1.5 points``, ``2 points`` (Italian ``1 punto``, ``1,5 punti``). A log's raw
    value (``1.5``, ``"1,5"``) is read too; the sign is left off (the sentence says who pays).
    """
    try:
        value = abs(Fraction(str(points).strip().replace(",", ".")))
    except (ValueError, ZeroDivisionError):
        return ngettext("%(points)s point", "%(points)s points", 2, points=str(points))
    return ngettext("%(points)s point", "%(points)s points", 1 if value == 1 else 2,
                    points=points_text(value, signed=False))


__all__ = ["points_text", "points_words"]
