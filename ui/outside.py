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
# GitHub-flavoured Markdown also links bare addresses (https://..., www...., a@b.c) whatever
# the escapes: it searches each text node after escapes are read. An empty Streamlit
# directive ends the text node there and draws nothing (an empty <span>), so no node
# holds a whole address, and a copy of the shown text is the text itself.
NO_LINK = ":small[]"
_AUTOLINK = re.compile(r"(\\:)(?=\\/)|(\\@)|((?i:www))(?=\\\.)")


def md(text: str) -> str:
    """Return outside text escaped for Streamlit's Markdown, so it shows exactly as written.

    Parameters
    ----------
    text : str
        A class name, a file name, a message quoting a file's cell, a link's value.

    Returns
    -------
    str
        Every ASCII punctuation character backslash-escaped, line breaks
        made spaces (a name is one line), and :data:`NO_LINK` (which shows
        nothing and copies as nothing) after the ``:`` of ``://``, after
        ``@`` and after ``www``, so no bare address becomes a link.

    Examples
    --------
    >>> md("[a](https://evil.example)")
    '\\\\[a\\\\]\\\\(https\\\\::small[]\\\\/\\\\/evil\\\\.example\\\\)'
    """
    escaped = _PUNCTUATION.sub(r"\\\1", " ".join(str(text).splitlines()))
    return _AUTOLINK.sub(lambda m: m.group(0) + NO_LINK, escaped)
