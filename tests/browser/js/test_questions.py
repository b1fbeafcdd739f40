"""ui/classroom_assets/questions.js: numbers and points as a student types them (held to the
class's own reading, classroom.state.read_number), a line through two points (state's
line_through), its segment on the plane (brute force on the box's corners) and its equation
in words; the Ask buttons' outside text as text."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom.state import line_through, read_number
from tests.browser.js.conftest import open_class_page

pytestmark = pytest.mark.browser

TYPED = ["0.35", "0,35", "-7/20", "\u22122", "1.5e-3", " 12 ", ".5", "2.", "abc", "", "1/0",
         "1,2,3", "0x10", "1e999", "--1", "7 / 20", "NaN", "Infinity", "3/4/5"]


@pytest.fixture(scope="module")
def page(browser):
    page = open_class_page(browser)
    yield page
    page.context.close()


def python_number(text: str):
    try:
        return read_number(text)
    except ValueError:
        return None


def test_a_typed_number_is_read_as_the_class_reads_it(page):
    got = page.evaluate("(all) => all.map((t) => cls.readNumber(t)?.value ?? null)", TYPED)
    for text, js in zip(TYPED, got, strict=True):
        py = python_number(text)
        if py is None or abs(py) > 10**300:
            assert js is None or text == "1e999", text
        else:
            assert js == pytest.approx(float(py)), text
    # what the page sends is what the class reads, the same number
    sent = page.evaluate("() => cls.readNumber('0,35').text")
    assert read_number(sent) == Fraction(35, 100)


def test_a_typed_point_is_two_numbers_with_decimal_points(page):
    got = page.evaluate("""() => ['0.5, 1', '(2; -1)', '3 4', '1,5, 2', 'a, 1', '1']
                                  .map((t) => cls.readPoint(t))""")
    assert got == [[0.5, 1], [2, -1], [3, 4], None, None, None]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=4, max_size=4))
def test_the_line_through_two_points_is_the_classes(page, points):
    if points[:2] == points[2:]:
        return
    got = page.evaluate("(p) => cls.through(...p)", points)
    assert [Fraction(v) for v in got] == list(line_through(*points))


@settings(max_examples=80, deadline=None)
@given(st.integers(-5, 5), st.integers(-5, 5), st.integers(-12, 12))
def test_a_lines_segment_is_on_it_inside_the_box_and_missing_only_when_it_misses(page, w1, w2,
                                                                                 b):
    if w1 == 0 and w2 == 0:
        return
    xr, yr = [-1, 2], [0, 3]
    seg = page.evaluate("([w1, w2, b, xr, yr]) => cls.clipped(w1, w2, b, xr, yr)",
                        [w1, w2, b, xr, yr])
    signs = {(w1 * x + w2 * y + b > 0) - (w1 * x + w2 * y + b < 0) for x in xr for y in yr}
    meets = 0 in signs or signs == {-1, 1}
    assert (seg is not None) == meets
    for x, y in seg or []:
        assert w1 * x + w2 * y + b == pytest.approx(0, abs=1e-9)
        assert xr[0] - 1e-9 <= x <= xr[1] + 1e-9 and yr[0] - 1e-9 <= y <= yr[1] + 1e-9


def test_a_boundary_is_said_as_a_reader_writes_it(page):
    got = page.evaluate("""() => [['-1', '-2', '-1'], ['1', '-1', '0'], ['7/20', '0', '2'],
                                  ['0', '0.5', '-0.25']].map((l) => cls.equation(...l))""")
    assert got == ["\u2212x\u2081 \u2212 2 x\u2082 \u2212 1 = 0", "x\u2081 \u2212 x\u2082 = 0",
                   "7/20 x\u2081 + 2 = 0", "0.5 x\u2082 \u2212 0.25 = 0"]


def test_the_lecturers_asks_are_buttons_of_text_and_a_problem_is_said(page):
    got = page.evaluate("""() => {
      document.body.replaceChildren();
      const c = { role: "lecturer", display: "ABCD-EFGH", link: "x", ended: false,
                  state: { step: 0, question: null }, answers: {},
                  offers: [{ label: "Ask: <b>1</b>", body: { kind: "choice" } },
                           { label: "Ask: q", problem: "slide 2, question 1: <i>no</i>" }] };
      c.ui = cls.build(document.body);
      cls.render(c);
      return { summary: c.ui.moreSummary.textContent,
               buttons: [...c.ui.offers.querySelectorAll("button")].map((b) => b.textContent),
               problems: [...c.ui.offers.querySelectorAll("span")].map((s) => s.textContent),
               bold: document.querySelectorAll("b, i").length };
    }""")
    assert got == {"summary": "Questions (2)", "buttons": ["Ask: <b>1</b>"],
                   "problems": ["slide 2, question 1: <i>no</i>"], "bold": 0}
