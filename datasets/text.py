"""Names from outside (a file, a link): kept as written, minus what hides or reorders text."""

from __future__ import annotations

import unicodedata

# Characters that reorder or hide the text around them (Trojan-Source style):
# the explicit embeddings, overrides and isolates, and the invisible marks.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Control characters, line and paragraph separators, and unassigned or private code points.
_DROPPED_CATEGORIES = frozenset({"Cc", "Zl", "Zp", "Cs", "Co", "Cn"})


def clean_name(text: str) -> str:
    """Return an outside name without control or bidi-override characters, trimmed.

    Parameters
    ----------
    text : str
        A class name, a label or a file name as the user's file or link holds it.

    Returns
    -------
    str
        The same text with control characters (tabs and line breaks included),
        line and paragraph separators, bidi embeddings, overrides, isolates
        and marks removed, then leading and trailing whitespace stripped.
        Everything else (accents, scripts, emoji with their joiners) stays.

    Examples
    --------
    >>> clean_name(" cat\\u202e\\n")
    'cat'
    """
    return "".join(
        char
        for char in text
        if char not in _BIDI_CONTROLS and unicodedata.category(char) not in _DROPPED_CATEGORIES
    ).strip()
