"""Deals and proxies in words for exports (the score sheet's CSV), in the reader's language.

The pages say the same with the macros of ``templates/tables/_deal_macros.html`` (one set of
translated sentences for both).
"""

from __future__ import annotations

from fractions import Fraction

from flask_babel import gettext as _

from chouette.amounts import format_cents
from chouette.point_words import points_words
from chouette.table.cubes import Deal


def deal_sentence(deal: Deal, currency: str) -> str:
    """``Cy: settled: Cy pays the box 1.5 points; the box kept the seat``."""
    if deal.half_points is not None:
        amount = points_words(Fraction(deal.half_points, 2))
    else:
        amount = format_cents(abs(deal.cents or 0), currency)
    if deal.sign > 0:
        text = _("settled: the box pays %(name)s %(amount)s", name=deal.member, amount=amount)
    elif deal.sign < 0:
        text = _("settled: %(name)s pays the box %(amount)s", name=deal.member, amount=amount)
    else:
        text = _("settled for nothing")
    if deal.seat == "box":
        text += "; " + _("the box kept the seat")
    elif deal.seat == "captain":
        text += "; " + _("%(name)s takes the box", name=deal.member)
    return f"{deal.member}: {text}"


def proxy_sentence(absent: str, proxy: str) -> str:
    """``Dee decides for Cy``."""
    return _("%(proxy)s decides for %(name)s", proxy=proxy, name=absent)
