"""Outside text helpers: Markdown and Plotly escaping keep the text and leave no markup."""

from __future__ import annotations

import html
import re
import string

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.names import HOSTILE_NAMES
from ui.outside import JOINER, md
from viz.outside import plain
from viz.plane import class_label, point_traces

text = st.one_of(st.sampled_from(HOSTILE_NAMES), st.text(max_size=80))


@settings(deadline=None)
@given(text)
def test_markdown_escaping_escapes_every_punctuation_and_keeps_the_text(value):
    escaped = md(value).replace(JOINER, "")
    assert "\n" not in escaped and "\r" not in escaped
    # Every ASCII punctuation character is escaped by the backslash before it.
    unescaped = re.sub(r"\\(.)", "", escaped)
    assert not set(unescaped) & set(string.punctuation)
    one_line = " ".join(value.splitlines())
    assert re.sub(r"\\([" + re.escape(string.punctuation) + "])", r"\1", escaped) == one_line


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
