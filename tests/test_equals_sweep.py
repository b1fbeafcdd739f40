"""'=' only where the value shown is the value: every lesson's words and numbers, read as a
student reads them, on an exact run and on its float twin.

Each lesson and part is opened through AppTest from a link that carries its data: six points
on the 0.5 grid (an exact run, eta 1, whose numbers are short decimals), and the same points
divided by 3 and written to 7 places (its float twin: the same geometry, every number of the
run in floats, most of them repeating decimals that can only be written rounded). Everything
the page puts in front of a student is read: titles, markdown, captions, notes, the LaTeX,
the metrics (label, value and delta), the tables' cells (not code: a listing or a link),
and each chart's words (trace names, hover and point text, annotations, axis titles and its
text alternative). In that
text, each "=" is a claim that what stands on either side of it is the same number, so it
fails the test where, on either side of it (up to the next relation sign or clause), a
number is written rounded: a number of 6 significant digits or more (viz.maths.num's
length, where it rounds), or of 4 or more that is not a multiple of 1/48 (the exact runs'
numbers on this grid are; the float twin's thirds are not); or a Plotly format with a
precision (``= %{y:.4g}``). Integers are whole counts, never rounded. The stepper's own text
(its maths, status line, reveals) is written in the browser: its "=" rule is tested in
Chromium (tests/browser/js/test_maths.py: each "=" of a step's maths against Fractions).

What it covers: 7 lessons, 17 lessons-and-parts, each on the exact run and on the float twin
where the part draws the link's data (the Boolean lesson and More than two classes draw their
own: one run each): 28 pages, on which about 1,300 pieces of text and 370 "=" signs are read
(each a claim, with the numbers on both of its sides), and 25 sentences that check the reader
itself. The pages' runs are cached across the file: 53 tests in about 9 s of CPU (11 s of
wall time on a shared 2-core machine at a load of 3, 7 Dec 2026), so the whole of it runs in
the fast loop. On the code
before "=" followed this rule everywhere, 15 of the 28 pages fail.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import ROOT, assert_clean, chart_elements, switch

# six points on the 0.5 grid, separable with a bias (a line with its margin, support vectors)
EXACT = [(1, 2, "+"), (2, 0.5, "+"), (1.5, 1, "+"), (-1, -1.5, "-"), (0.5, -2, "-"),
         (-2, 0.5, "-")]


def link_points(points, scale: Fraction = Fraction(1)) -> str:
    """A link's pts, each coordinate times ``scale`` written to 7 places where it is not
    short (so that the run is in floats: more than the 6 decimals an exact run takes)."""
    def written(value) -> str:
        v = Fraction(value).limit_denominator(100) * scale
        return f"{float(v):.7f}" if v.denominator % 3 == 0 else f"{float(v):g}"

    return ";".join(f"{written(a)},{written(b)},{label}" for a, b, label in points)


RUNS = {"exact": link_points(EXACT), "floats": link_points(EXACT, Fraction(1, 3))}
# each lesson and its parts (None: a lesson drawn whole), and whether they draw the link's data
PAGES = [("step_through", None, True), ("margin", None, True), ("nonseparable", None, True),
         ("svm", "Losses", True), ("svm", "Train side by side", True),
         ("svm", "Soft margin", True), ("svm", "Generalization", True),
         ("svm", "In scikit-learn", True), ("variants", "averaged", True),
         ("variants", "kernel", True), ("variants", "classes", False),
         ("boolean", "weights", False), ("boolean", "training", False),
         ("boolean", "xor", False), ("boolean", "lift", False), ("boolean", "parity", False),
         ("your_data", None, True)]
CASES = [pytest.param(lesson, part, run, id=f"{lesson}-{part or 'whole'}-{run}")
         for lesson, part, own_data in PAGES for run in ("floats", "exact")
         if own_data or run == "exact"]

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w])")
# what ends a side of an "=": another relation, or the end of a clause (outside brackets)
RELATION = re.compile(r"=|≈|\\approx|≤|≥|<|>|\\le(?:q)?\b|\\ge(?:q)?\b|\\ne\b|←|→|"
                      r"\\leftarrow|\\Rightarrow")
WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")
FORMAT = re.compile(r"^\s*%\{[^}:]*:[^}]*\.\d+[^}]*\}")


def rounded(token: str) -> bool:
    """Whether a number as written is a rounding: 6 or more significant digits (num()'s
    length), or 4 or more that are not a multiple of 1/48; never an integer."""
    if not re.search(r"[.e]", token):
        return False
    mantissa = token.lstrip("-").split("e")[0]
    digits = len(mantissa.replace(".", "").lstrip("0"))
    if digits >= 6:
        return True
    return digits >= 4 and (Fraction(token) * 48).denominator != 1


def plain(text: str) -> str:
    """Text as read: LaTeX's alignment marks and line breaks, HTML breaks and tags and the
    thin spaces out, so that a chain a = ... = ... over lines is one chain."""
    text = re.sub(r"<br>", "\n", text)
    text = re.sub(r"\\(begin|end)\{[a-z*]+\}|\$", " ", text)
    text = re.sub(r"\\\\(\[[^\]]*\])?|&|<[^>]+>|\\[,;!]|\\quad|\\qquad|\\ ", " ", text)
    return text.replace("{,}", "")


def sides(text: str, at: int, length: int) -> tuple[str, str]:
    """What stands on either side of the relation at ``at``: back to the previous relation or
    clause mark at bracket depth 0, and on to the next."""
    def walk(chars, opening, closing) -> str:
        depth, out = 0, []
        for ch in chars:
            if ch in opening:
                depth += 1
            elif ch in closing:
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (ch in ",;:\n" or ch == "·"):
                break
            out.append(ch)
        return "".join(out)

    right = walk(text[at + length:], "({[", ")}]")
    left = walk(reversed(text[:at]), ")}]", "({[")[::-1]
    right = RELATION.split(right)[0]
    left = RELATION.split(left)[-1]
    # a sentence ends a side too (". " after a word), and so does a word (not a LaTeX name):
    # "its J is ≈ 0.0104 against J* = 0.0025" says J* = 0.0025
    right = WORD.split(re.split(r"\.\s", right)[0])[0]
    left = WORD.split(re.split(r"\.\s", left)[-1])[-1]
    return left, right


def arithmetic(side: str) -> Fraction | None:
    """A side that is only numbers and arithmetic (LaTeX's fractions and products too), in
    Fractions; None for anything else (a formula, a vector, words)."""
    code = side.strip().replace("−", "-").replace(r"\cdot", "*").replace("·", "*")
    code = code.replace(r"\left(", "(").replace(r"\right)", ")")
    code = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"((\1)/(\2))", code)
    code = re.sub(r"\)\s*\(", ")*(", code)
    if not code or not re.fullmatch(r"[0-9.e+\-*/() ]+", code) or "," in code:
        return None
    code = NUMBER.sub(lambda m: f"F('{m.group()}')", code)
    try:
        return eval(code, {"F": Fraction})  # only numbers and + - * / ( ), checked above
    except (SyntaxError, ZeroDivisionError, TypeError):
        return None


def false_equals(text: str) -> list[str]:
    """Each "=" of ``text`` with a rounded number (or a rounding format) on a side of it,
    unless both sides are arithmetic on the numbers written and come out equal."""
    text = plain(text)
    found = []
    for match in re.finditer(r"(?<![<>!=≤≥])=(?!=)", text):
        left, right = sides(text, match.start(), 1)
        both = arithmetic(left), arithmetic(right)
        if both[0] is not None and both[0] == both[1]:
            continue  # 2.82353/5 = 0.564706: the arithmetic written is the arithmetic done
        bad = [t for t in NUMBER.findall(left) + NUMBER.findall(right) if rounded(t)]
        if bad or FORMAT.match(text[match.end():]):
            found.append(text[max(0, match.start() - 60):match.end() + 60].strip())
    return found


def figure_words(figure: dict) -> list[str]:
    """A chart's words: its traces' names, hover and point text, its annotations, titles and
    axis titles."""
    words = []

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, tuple)):
            for item in value:
                yield from strings(item)

    for trace in figure.get("data", []):
        for key in ("name", "hovertext", "text", "hovertemplate", "texttemplate"):
            words.extend(strings(trace.get(key)))
        if isinstance(trace.get("customdata"), list):
            words.extend(strings(trace["customdata"]))
    layout = figure.get("layout", {})
    for note in layout.get("annotations", []) or []:
        words.extend(strings(note.get("text")))
    for value in layout.values():
        if isinstance(value, dict):
            title = value.get("title")
            words.extend(strings(title.get("text") if isinstance(title, dict) else title))
    return words


def page_text(at: AppTest) -> list[str]:
    """Everything the page shows a student as text, piece by piece."""
    pieces = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "latex", "info",
                 "warning", "success", "error"):
        pieces.extend(str(element.value) for element in at.get(kind))
    for metric in at.metric:
        pieces.append(f"{metric.label}: {metric.value}" + (f" ({metric.delta})"
                                                            if metric.delta else ""))
    for table in [*at.get("table"), *at.get("dataframe")]:
        frame = table.value
        if isinstance(frame, pd.DataFrame):
            pieces.extend(str(c) for c in frame.columns)
            pieces.extend(str(v) for v in frame.astype(str).to_numpy().ravel())
    for _, figure, alt in chart_elements(at):
        pieces.extend(figure_words(figure))
        pieces.append(alt or "")
    return [p for p in pieces if p]


def open_page(lesson: str, part: str | None, run: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"pts": RUNS[run], "step": "3", **({"part": part} if part else {})})
    switch(at, lesson).run()  # opened at /<lesson>?..., as the link opens it
    assert_clean(at)
    return at


@pytest.mark.parametrize(("lesson", "part", "run"), CASES)
def test_no_equals_stands_beside_a_rounded_number(lesson, part, run):
    at = open_page(lesson, part, run)
    pieces = page_text(at)
    assert len(pieces) > 3, pieces  # the page drew its words
    wrong = [claim for piece in pieces for claim in false_equals(piece)]
    assert not wrong, json.dumps(wrong, ensure_ascii=False, indent=1)


@pytest.mark.parametrize(("text", "wrong"), [
    ("a = w·x + b = (0.333333)(1) + 0 ≈ 0.333333", 1),  # a rounded factor after "="
    ("a = w·x + b ≈ (0.333333)(1) + 0 ≈ 0.333333", 0),
    (r"y\,a &= (1)(0.5) \\ &= 0.5", 0),
    (r"\frac{R^2}{\gamma^2} = \frac{2.82843^2}{0.5^2} \approx 32", 1),
    ("Margin(D) = 0.353553", 1), ("Margin(D) ≈ 0.353553", 0), ("R²/γ² ≈ 13.75", 0),
    ("the bound R²/γ² = 13.7547, 81 mistakes", 1), ("x = (0.5, 1.33333)", 1),
    ("η = 0.1, ‖w‖ ≈ 2.44949", 0), ("t=%{x}<br>u·wₜ=%{y:.4g}", 1), ("t=%{x}", 0),
    ("w = (0.0625, 2.125), b = 1", 0), ("Step 1234 = t", 0), ("q = 138{,}994", 0),
    ("(0.333333)(0.5) = 0.5", 1), ("L ≈ 0.6931", 0), ("SVC(C = 3.33333)", 1),
    (r"\approx \frac{2.82353}{4 + 1} = 0.564706", 0),
    (r"(3.4)(4.9) - 21.9\cdot(1.6) - 3 = -21.38", 0),
    (r"(3.4)(4.9) - 21.9\cdot(1.6) - 3 = -21.3801", 1),
    ("after update 1<br>w ≈ (0.333333, 0.666667)<br>b = 1", 0),
    ("its J is ≈ 0.0104298 against J* = 0.0025: J − J* ≈ 0.00792977", 0),
    ("its J is 0.0104298 against J* = 0.0025", 0), ("its J = 0.0104298", 1),
])
def test_the_sweep_reads_an_equals_as_a_student_does(text, wrong):
    # the reader itself, on sentences the pages wrote before and after: each false "=" found
    assert len(false_equals(text)) == wrong, false_equals(text)
