"""Plain text from the apps' HTML status lines (what tests and notebooks print)."""

from __future__ import annotations

import html
import re

__all__ = ["plain_text", "label_word"]


def plain_text(html_text: str) -> str:
    """``html_text`` without its tags, entities unescaped.

    Parameters
    ----------
    html_text : str

    Returns
    -------
    str

    Examples
    --------
    >>> plain_text("<b>3 mistakes</b> &lt; 5")
    '3 mistakes < 5'
    """
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))


def label_word(y: int) -> str:
    """How the apps write a similarity label.

    Parameters
    ----------
    y : int
        ``1`` (dissimilar) or ``0`` (similar).

    Returns
    -------
    str

    Examples
    --------
    >>> label_word(1), label_word(0)
    ('DISSIMILAR (1)', 'SIMILAR (0)')
    """
    return "DISSIMILAR (1)" if y == 1 else "SIMILAR (0)"
