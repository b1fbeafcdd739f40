"""Outside text (class names, file names, link values) in a figure: shown as written, never markup.

Plotly reads trace names, hover text, titles and annotations as a small
HTML dialect (``<a href>``, ``<b>``, ``<br>``, entities), so a class name
``<a href='https://evil.example'>x</a>`` would put a link in the legend.
Every outside string enters a figure through :func:`plain`.
"""

from __future__ import annotations

import html


def plain(text: str) -> str:
    """Return outside text escaped for Plotly, so it shows exactly as written.

    Parameters
    ----------
    text : str
        A class name, a data set's name or any text from a file or a link.

    Returns
    -------
    str
        The text with ``&``, ``<`` and ``>`` as entities, which Plotly shows
        as the characters themselves.

    Examples
    --------
    >>> plain("<a href='https://evil.example'>x</a> & co")
    "&lt;a href='https://evil.example'&gt;x&lt;/a&gt; &amp; co"
    """
    return html.escape(str(text), quote=False)
