"""QR codes drawn server-side (segno) as inline SVG: a phone scans one to open a table."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(url: str, scale: int = 4) -> Markup:
    """An inline SVG QR code that opens ``url`` (error correction M: survives a crease)."""
    svg = segno.make(url, error="m").svg_inline(scale=scale, omitsize=True, svgclass="qr")
    # Safe to mark: segno writes the SVG itself; the URL becomes modules, never markup.
    return Markup(svg)
