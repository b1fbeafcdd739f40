"""format.js's num against viz.maths.num, tie for tie; its labelled against viz.maths's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.browser.js.conftest import floats
from viz.maths import labelled, num

pytestmark = pytest.mark.browser

# Exact ties, where JS's toFixed/toPrecision (away from zero) and Python (to even) part ways:
# at the 7th significant digit, and at the 11th decimal (round(v, 10)).
TIES = [1000005.0, 1000015.0, 2000025.0, 1234565.0, 999999.5, 0.5, 2.5, -2.5, 1.25,
        2.0 ** -11, 3 * 2.0 ** -11, 2.0 ** -12, -(2.0 ** -11), 5 * 2.0 ** -34, 2.0 ** -20,
        0.00048828125, 0.000244140625, 1e21, 1e22 + 2**20, 123456789012345678901234.0]
PLAIN = [0.0, -0.0, 1.0, -1.0, 0.1, 0.35, 0.1 + 0.2, 0.3 - 0.1, -0.1, 0.2 * 3, 1e-12, -1e-12,
         1e-5, 1.5e-5, 0.0001, 0.00012345678, 123456.0, 999999.0, 1e6, 1234567.0, -7.25e8,
         1e100, 1e-100, 3.14159265358979, 2.0 / 3, -2.0 / 3, 100.0, 0.1 * 0.1, 1e15 / 3,
         float("inf"), float("-inf"), float("nan")]


def js_num(page, values: list[float]) -> list[str]:
    """Every value written by the page's num()."""
    return page.evaluate("(text) => Array.from(pl.floats(text), pl.num)", floats(values))


def test_ties_round_to_even_as_python_does(js):
    assert js_num(js, TIES) == [num(v) for v in TIES]
    # the cases are real ties: JS's own formatting would disagree on some
    assert num(1000005.0) == "1e6" and num(1000015.0) == "1.00002e6"


def test_ordinary_numbers_match(js):
    assert js_num(js, PLAIN) == [num(v) for v in PLAIN]


@settings(max_examples=30, deadline=None)
@given(values=st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=50,
                       max_size=50))
def test_any_double_matches(js, values):
    assert js_num(js, values) == [num(v) for v in values]


def test_numbers_of_a_run_match(js):
    """Products and sums as a run makes them: eta * y * x and w + eta * y * x."""
    rng = np.random.default_rng(0)
    w = np.round(rng.normal(size=400), 1)
    x = np.round(rng.normal(size=400), 2)
    values = [float(v) for v in np.concatenate([w * x, w + 0.1 * x, 0.1 * x, w * x + 0.05])]
    assert js_num(js, values) == [num(v) for v in values]


@pytest.mark.parametrize("classes", [("-1", "+1"), ("0", "1"), ("cat", "dog"), ("1", "-1"),
                                     ("<b>no</b>", "+1"), ("+1", "−1")])
def test_a_label_names_its_class_where_the_name_says_more(js, classes):
    for y in (-1.0, 1.0):
        assert js.evaluate("([y, classes]) => pl.labelled(y, classes)",
                           [y, list(classes)]) == labelled(y, classes)
    assert labelled(-1.0, ("-1", "+1")) == "-1" and labelled(1.0, ("cat", "dog")) == "1 (dog)"
