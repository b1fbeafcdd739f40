"""format.js's num against viz.maths.num, tie for tie; its labelled against viz.maths's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.browser.js.conftest import floats
from viz.maths import chain_signs, eq_sign, labelled, num

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


# "=" only where the number written is the value: format.js's isShown, eqSign and named say
# what viz.maths's is_shown, eq_sign say, on every kind of double (and a run in floats, exact
# false, is always "≈")
SIGNS = [*TIES, *PLAIN, 1 / 3, 4 / 3, 2.0 ** 0.5, 0.125 ** 0.5, 1.33333, 2.66667, 0.353553,
         5.92524e15, 1.5e-7, 13.75, 729 / 53]


def js_signs(page, values: list[float], exact: bool) -> list[str]:
    return page.evaluate("([text, exact]) => Array.from(pl.floats(text), "
                         "(v) => pl.eqSign(v, exact))", [floats(values), exact])


@pytest.mark.parametrize("exact", [True, False])
def test_equals_only_where_the_number_written_is_the_value(js, exact):
    assert js_signs(js, SIGNS, exact) == [eq_sign(v, exact=exact) for v in SIGNS]
    signs = dict(zip(SIGNS, js_signs(js, SIGNS, True), strict=False))
    assert signs[0.35] == "=" and signs[1 / 3] == "≈" and signs[2.0 ** 0.5] == "≈"
    assert signs[1.33333] == "=" and signs[123456789012345678901234.0] == "≈"


@settings(max_examples=20, deadline=None)
@given(values=st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=40,
                       max_size=40))
def test_any_double_gets_the_sign_python_gives(js, values):
    assert js_signs(js, values, True) == [eq_sign(v) for v in values]


def test_a_point_is_named_with_the_sign_of_its_coordinates(js):
    got = js.evaluate("(pts) => pts.map((x) => pl.named('x', x))",
                      [[0.5, -1], [4 / 3, 8 / 3], [1.33333, 2]])
    assert got == ["x = (0.5, -1)", "x ≈ (1.33333, 2.66667)", "x = (1.33333, 2)"]


@pytest.mark.parametrize("places", [None, 2, 4])
def test_a_number_kept_to_places_gets_the_sign_python_gives(js, places):
    # viz.maths.is_shown's places: the number first rounded to so many decimals (the SVM's
    # numbers to 4), "=" only where that is the value
    values = [*SIGNS, 0.12345, 0.1235, 0.00005, 2.5, 1e-5]
    got = js.evaluate("([text, places]) => Array.from(pl.floats(text), "
                      "(v) => pl.eqSign(v, true, places ?? undefined))", [floats(values), places])
    assert got == [eq_sign(v, places=places) for v in values]


# a line of maths with its numbers, "formula = substitution = result": given numbers (data,
# settings), the run's own (exact or in floats) and the result, as the two signs both write
CHAINS = [([0.5, 1], [0.25], 0.75), ([1 / 3, 1], [0.5], 0.5), ([0.5], [0.123456789], 1.0),
          ([2], [], 2 ** 0.5), ([1], [0.5], 0.5), ([[0.5, 1.5], -1], [[0.25, 0.125]], [0.5, 3]),
          ([0.3254257, 1], [], 0.0), ([], [0.12345, 0.5], 0.62345)]


@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize("places", [None, 4])
def test_a_lines_two_signs_are_pythons(js, exact, places):
    got = js.evaluate("([chains, exact, places]) => chains.map(([given, computed, result]) => "
                      "pl.chainSigns(given, computed, result, exact, places ?? undefined))",
                      [CHAINS, exact, places])
    assert [tuple(pair) for pair in got] == [
        chain_signs(g, c, r, exact=exact, places=places) for g, c, r in CHAINS]
    if exact and places is None:
        assert [tuple(pair) for pair in got][:3] == [("=", "="), ("≈", "≈"), ("≈", "≈")]
