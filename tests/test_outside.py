"""Outside text helpers: Markdown and Plotly escaping keep the text and leave no markup."""

from __future__ import annotations

import html
import re
import string

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.names import HOSTILE_NAMES
from ui.outside import NO_LINK, md
from viz.outside import plain
from viz.plane import class_label, point_traces

text = st.one_of(st.sampled_from(HOSTILE_NAMES), st.text(max_size=80))


@settings(deadline=None)
@given(text)
def test_markdown_escaping_escapes_every_punctuation_and_keeps_the_text(value):
    escaped = md(value).replace(NO_LINK, "")
    assert "\n" not in escaped and "\r" not in escaped
    # Every ASCII punctuation character is escaped by the backslash before it.
    unescaped = re.sub(r"\\(.)", "", escaped)
    assert not set(unescaped) & set(string.punctuation)
    one_line = " ".join(value.splitlines())
    assert re.sub(r"\\([" + re.escape(string.punctuation) + "])", r"\1", escaped) == one_line


# GitHub-flavoured Markdown's bare addresses, as its autolink pass searches a text node
# (mdast-util-gfm-autolink-literal), without the checks that only narrow what it links
BARE_ADDRESS = re.compile(r"(https?://|www(?=\.))[-.\w]+|[-.\w+]+@[-\w]+(\.[-\w]+)+",
                          re.IGNORECASE | re.ASCII)
ADDRESSES = ["https://evil.example/a", "HTTP://evil.example", "www.evil.example",
             "WWWW.evil.example", "me@evil.example", "mailto:me@evil.example",
             "see https://a.b/c?d=e, www.f.g or h@i.j."]


@settings(deadline=None)
@given(st.one_of(st.sampled_from(ADDRESSES), text))
def test_no_text_node_holds_a_bare_address_and_the_shown_text_is_the_text(value):
    pieces = [re.sub(r"\\(.)", r"\1", piece) for piece in md(value).split(NO_LINK)]
    assert not [p for p in pieces if BARE_ADDRESS.search(p)]
    # the directive draws nothing, so what shows (and is copied) is the text, nothing added
    assert "".join(pieces) == " ".join(value.splitlines())


def test_only_addresses_are_cut():
    assert md("a:b www x@") == "a\\:b www x\\@" + NO_LINK
    assert md("https://x").count(NO_LINK) == 1 and md("www.x").count(NO_LINK) == 1


@settings(deadline=None)
@given(text)
def test_plotly_escaping_leaves_no_tag_and_reads_back(value):
    escaped = plain(value)
    assert "<" not in escaped and ">" not in escaped
    assert html.unescape(escaped) == value


def test_legend_names_are_plain_text():
    traces = point_traces(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([-1, 1]), ("<a href='https://evil.example'>x</a>",
                                                     "[a](b)"))
    assert traces[0].name == "class -1 (&lt;a href='https://evil.example'&gt;x&lt;/a&gt;)"
    assert traces[1].name == "class +1 ([a](b))"
    assert class_label(1, "+1") == "class +1"
