"""Hypothesis strategies for names that come from outside: any text a file or a link may hold."""

from __future__ import annotations

from hypothesis import strategies as st

from datasets.loader import MAX_LABEL
from datasets.text import clean_name

HOSTILE_NAMES = [
    "a,b", "x;y", "50%", "%2C", "a&b=c", "#top", "+1 ", "=cmd|' /C calc'!A0", "@SUM(A1)",
    "-2+3", "'quoted'", '"double"', "<a href='https://evil.example'>x</a>",
    "[Answers](https://evil.example/a)", "![t](https://evil.example/t.png)",
    ":red[**SESSION EXPIRED**]", "$\\frac{1}{0}$", "ñandú", "猫", "🐈‍⬛", "a" * MAX_LABEL,
    "b\u202eevil", "tab\there", "line\nbreak",
]

# Any text, as a cleaned class name of 1 to MAX_LABEL characters.
class_name = st.one_of(st.sampled_from(HOSTILE_NAMES), st.text(min_size=1, max_size=MAX_LABEL)).map(
    clean_name
).filter(lambda name: 0 < len(name) <= MAX_LABEL)
class_pair = st.lists(class_name, min_size=2, max_size=2, unique=True).map(tuple)


def is_text_label(name: str) -> bool:
    """Not a number and not true/false: the loader orders such names as strings."""
    try:
        float(name.replace(",", ".", 1))
    except ValueError:
        return name.lower() not in ("true", "false")
    return False
