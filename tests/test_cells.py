"""Tests for :mod:`datasets.cells`: a column's answers read at once agree with a cell at a time."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets.cells import all_numbers, can_label, class_list, number

cell_text = st.one_of(
    st.sampled_from(["1", "+1", "1.0", "-1", "0", "1,5", "1.000,5", "1_0", "nan", "inf", "-0",
                     "true", "TRUE", "False", "a", "b", "'=x", "=x", "", " ", "\x07", "a\u202e",
                     "1e999", "١", "0x1", "1,2,3"]),
    st.integers(-300, 300).map(str),
    st.text("ab,.;1", max_size=4),
    st.text(max_size=3).filter(lambda text: "\n" not in text and "\r" not in text),
)  # a cell never holds a line break


@settings(max_examples=400, deadline=None)
@given(cells=st.lists(cell_text, min_size=1, max_size=250), decimal_comma=st.booleans())
def test_whole_column_answers_agree_with_reading_each_cell(cells, decimal_comma):
    cells = tuple(cells)
    one_by_one = []
    for cell in cells:
        value = number(cell, decimal_comma)
        one_by_one.append(value is not None and math.isfinite(value))
    assert all_numbers(cells, decimal_comma) == all(one_by_one)
    try:
        class_list(cells, tuple(range(1, len(cells) + 1)), "column 1", decimal_comma)
    except ValueError:
        accepted = False
    else:
        accepted = True
    assert can_label(cells, decimal_comma) == accepted


def test_a_label_column_is_refused_at_its_first_bad_row():
    cells, rows = ("a", "nan", "", "b" * 101), (4, 5, 6, 7)
    with pytest.raises(ValueError, match=r"^row 5, column 3: 'nan' is a missing value"):
        class_list(cells, rows, "column 3", decimal_comma=False)
    with pytest.raises(ValueError, match=r"^row 7, column 3: 'b{27}\.\.\.' is 101 characters"):
        class_list(("a", "", "b", "b" * 101), rows, "column 3", decimal_comma=False)
