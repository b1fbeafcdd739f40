"""Outside text (class names, file names, link values) in Streamlit Markdown: literal, not markup.

Streamlit reads every caption, message, toast, tooltip and widget label as
Markdown with its own extensions: links and images (which make the browser
fetch from another host), ``:red[...]`` colours, ``:material/...:`` icons,
``$...$`` maths. A class name from a link such as
``[Answers](https://evil.example/a)`` or ``:red[**SESSION EXPIRED**]`` must
show as those characters, so every outside string enters Markdown through
:func:`md`.
"""

from __future__ import annotations

import re
import string

# CommonMark lets a backslash escape any ASCII punctuation; Streamlit's
# directives (:red[...], :material/x:), maths ($) and autolinks (www., https:)
# start with such characters too, so escaping them all leaves no markup.
_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")


def md(text: str) -> str:
    """Return outside text escaped for Streamlit's Markdown, so it shows exactly as written.

    Parameters
    ----------
    text : str
        A class name, a file name, a message quoting a file's cell, a link's value.

    Returns
    -------
    str
        Every ASCII punctuation character backslash-escaped, and line breaks
        made spaces (a name is one line).

    Examples
    --------
    >>> md("[a](https://evil.example)")
    '\\\\[a\\\\]\\\\(https\\\\:\\\\/\\\\/evil\\\\.example\\\\)'
    """
    return _PUNCTUATION.sub(r"\\\1", " ".join(str(text).splitlines()))
