"""The margin lesson's own pieces: URL fields, cached geometry, and its sections."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import streamlit as st

from core.bound_experiment import mistakes_against_bound, mistakes_by_start
from core.decimals import exact_decimals, tie_tolerance
from core.geometry import (
    best_unit_separator,
    exact_mistake_bound,
    geometric_margin,
    mistake_bound,
    proof_quantities,
    radius,
)
from core.max_margin import max_margin
from core.perceptron import ORDERS, perceptron
from core.trace import Trace, align, exact_weights, outcome, record
from core.update_effect import UpdateEffect, update_effect
from core.words import listed, plural
from datasets import Dataset
from datasets.builtin import notes_four_points, separable
from lessons import link
from lessons.margin.figures import (
    experiment_figure,
    margin_figure,
    margin_latex,
    plane_box,
    proof_figure,
    spaces_latex,
)
from ui.cached_runs import perceptron_trace
from ui.class_questions import QUICK, number_ask, problem_ask
from ui.floats import float_marker, marked
from ui.lecture import lecture_mode
from ui.lesson import Lesson, Parts, cannot_go_on
from ui.next_try import capped_run_hint
from ui.settings import Setting
from ui.stepper import perceptron_run
from viz.maths import eq_sign, equals, num, vec, written

PAGE = "margin"
SWEEP_MARGINS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
SWEEP_SEEDS = tuple(range(6))
SWEEP_POINTS = 40
# The notes' 4 points from a start away from 0, where the bound R^2/gamma^2 = 81 can fail.
ELSEWHERE = ((-3.0, 3.0), 2.0)
START_ETAS = (1.0, 0.1, 0.01)
LAYOUTS = ("Side by side", "Overlaid")

LAYOUT = Setting(f"{PAGE}.layout", "sep", "choice", "Side by side", "Separators",
                 widget="segmented", options=LAYOUTS)
BALL = Setting(f"{PAGE}.ball", "ball", "bool", True, "Zoom out to the whole circle of the ball",
               widget="toggle")
# Two runs of the notes' 4 points stepped together: eta from w0 = 0 and from ELSEWHERE.
PAIR_EPOCHS = 1000  # enough for eta = 0.01 from ELSEWHERE (1353 mistakes)
PAIR_STARTS = {"zeros": "w₀ = 0, b₀ = 0", "elsewhere": "w₀ = (−3, 3), b₀ = 2"}
PAIR = Setting(f"{PAGE}.pair", "pair", "bool", False,
               "Two runs side by side: η from w₀ = 0 and from elsewhere", widget="toggle")
PAIR_START = Setting(f"{PAGE}.pair_start", "pair_from", "choice", "zeros", "Both runs start from",
                     widget="segmented", options=tuple(PAIR_STARTS), labels=PAIR_STARTS)
PAIR_ETAS = tuple(
    Setting(f"{PAGE}.pair_eta_{side}", f"eta_{side}", "float", default, f"η of the {name} run",
            widget="segmented", options=START_ETAS)
    for side, name, default in (("l", "left", 1.0), ("r", "right", 0.1)))
SETTINGS = (LAYOUT, BALL, PAIR, PAIR_START, *PAIR_ETAS)
# The parts, each drawn from the data and the run settings, one after the other.
PARTS = Parts()
BOUND_QUESTION = "Novikoff's bound on these data: at most how many mistakes can the run make?"


def bound_ask(params: dict[str, str]) -> dict:
    """The class's quick question on this lesson (ui.class_questions.QUICK): the most mistakes
    the bound R²/γ² allows on the view's data, a count (core.quantities' ``most_mistakes``,
    exact on exact data); offered with its reason where no line separates the data."""
    from urllib.parse import urlencode

    from classroom.state import number_text
    from core import quantities
    from ui.plan_runs import run_facts

    try:
        most = quantities.value("most_mistakes", run_facts(urlencode(params)), 0)
    except ValueError as why:
        return problem_ask(BOUND_QUESTION, str(why))
    return number_ask(BOUND_QUESTION, number_text(Fraction(most.answer)))


QUICK[PAGE] = bound_ask


@st.cache_data(max_entries=32, show_spinner=False)
def geometry_of(X: np.ndarray, y: np.ndarray, bias: bool) -> dict:
    """Everything about the data set the lesson shows: R, gamma, the bound, the max margin."""
    found = best_unit_separator(X, y, bias=bias)
    return dict(bound=mistake_bound(X, y, bias=bias), R=radius(X, bias=bias),
                exact_bound=exact_mistake_bound(X, y, bias=bias),
                R_plane=radius(X, bias=False), u=None if found is None else found[0],
                gamma=None if found is None else found[1],
                maximum=max_margin(X, y) if len(np.unique(y)) == 2 else None,
                one_class=len(np.unique(y)) == 1)


@st.cache_data(show_spinner=f"Training the perceptron on {len(SWEEP_MARGINS) * len(SWEEP_SEEDS)} "
                            f"data sets in {len(ORDERS)} orders…")
def sweep() -> pd.DataFrame:
    """The experiment: mistakes and bound for every margin, data seed and order."""
    runs = mistakes_against_bound(lambda m, s: separable(SWEEP_POINTS, m, s),
                                  margins=SWEEP_MARGINS, seeds=SWEEP_SEEDS, orders=ORDERS)
    return pd.DataFrame([dataclasses.asdict(run) for run in runs])


@st.cache_data(show_spinner=False)
def starts_table() -> pd.DataFrame:
    """Mistakes on the notes' 4 points from w = 0 and from ELSEWHERE, for each eta, exactly."""
    data = notes_four_points()
    runs = mistakes_by_start(data.X, data.y, etas=START_ETAS, starts=("zeros", ELSEWHERE))
    by = {(str(r["start"]), r["eta"]): r["mistakes"] for r in runs}
    (w1, w2), b = ELSEWHERE
    return pd.DataFrame({
        "η": [num(eta) for eta in START_ETAS],
        "mistakes from w₀ = 0, b₀ = 0": [by[("zeros", eta)] for eta in START_ETAS],
        f"mistakes from w₀ = ({num(w1)}, {num(w2)}), b₀ = {num(b)}":
            [by[(str(ELSEWHERE), eta)] for eta in START_ETAS],
        "bound R²/γ²": [bound_written(data)] * len(START_ETAS),
    })


def bound_written(data: Dataset, *, sign: bool = False) -> str:
    """The notes' bound R²/γ² on these data as a page writes it: exact where it is certified
    (core.geometry.exact_mistake_bound), "≈" where the number written is not the bound."""
    exact = exact_mistake_bound(data.X, data.y)
    value = exact if exact is not None else mistake_bound(data.X, data.y)
    return equals(value, exact=exact is not None) if sign else written(
        value, exact=exact is not None)


def starts_sentence(table: pd.DataFrame) -> str:
    """What the table of counts from the two starts shows, read from the table."""
    zeros, other = table.iloc[:, 1], table.iloc[:, 2]
    data = notes_four_points()
    bound = mistake_bound(data.X, data.y)
    same = zeros.nunique() == 1
    head = ("From w₀ = 0 every weight vector is η times the η = 1 run's, so η changes no "
            f"decision: the count is {zeros.iloc[0]} for every η. " if same else
            "From w₀ = 0 the counts differ with η. ")
    past = [eta for eta, count in zip(table["η"], other, strict=True) if count > bound]
    if past:
        return head + (f"From the other start the count passes the bound for η = "
                       f"{listed(past)}: small steps take long to undo the start, and the "
                       "theorem needs w₀ = 0.")
    return head + "From the other start no count here passes the bound."


def theorem_section(*, bias: bool) -> None:
    """Novikoff's theorem once, whole, and the notes' 4 points where a non-zero start breaks it."""
    st.markdown("**Novikoff's theorem.** Let **z**ₙ = "
                + ("(**x**ₙ, 1), the vectors the perceptron with a bias sees" if bias
                   else "**x**ₙ") + ".")
    st.latex(r"\text{If } \lVert \mathbf{z}_n \rVert \le R \ \text{and}\ "
             r"y_n\, \mathbf{u}^\top \mathbf{z}_n \ge \gamma > 0 \ \text{for every } n "
             r"\text{ and one unit } \mathbf{u},")
    st.latex(r"\text{then from } \mathbf{w}_0 = \mathbf{0}\text{, for any } \eta > 0 "
             r"\text{ and any order: updates} \le R^2/\gamma^2.")
    with st.expander("Without w₀ = 0 the bound can fail"):
        st.markdown("The notes' 4 points (R²/γ² = 81 with a bias), cyclic order, counted in "
                    "exact arithmetic:")
        table = starts_table()
        st.dataframe(table, hide_index=True, key=f"{PAGE}.starts")
        st.caption(starts_sentence(table) + " Turn on *Two runs side by side* under the "
                   "stepper to step through two of these runs together.")


@PARTS.part("run")
def stepped_run(lesson: Lesson, data: Dataset, settings: dict) -> None:
    """The run stepped through beside the maximum margin, and under it the bound and the proof
    at the step it is on."""
    try:
        trace = perceptron_trace(data.X, data.y, settings)
        facts = geometry_of(data.X, data.y, settings["bias"])
    except ValueError as error:
        cannot_go_on(f"These settings cannot train: {error}")
    result = outcome(trace, data.X, data.y, max_epochs=settings["max_epochs"])
    bias = settings["bias"]
    zeros_start = not np.any(trace.W[0]) and trace.b[0] == 0  # where Novikoff's theorem starts
    figure, beside = separator_figures(lesson, data, facts, bias=bias, lecture=lecture_mode())

    def at_step(k: int) -> None:
        """What follows the step on the server: the bound against this boundary, the proof."""
        if not trace.exact:
            float_marker()
        current = current_boundary(data, trace, k)
        bound_row(facts, current["margin"], bias=bias, zeros_start=zeros_start,
                  exact=trace.exact)
        theorem_section(bias=bias)
        beside()
        margin_section(current["margin"], facts["maximum"], one_class=facts["one_class"],
                       exact=trace.exact)
        spaces_section(facts, bias=bias)
        update_section(data, trace, k, bias=bias, eta=settings["eta"])
        proof_section(lesson, trace, facts, k, bias=bias, eta=settings["eta"],
                      zeros_start=zeros_start)

    run = marked(perceptron_run(data, trace, settings, result, lecture=lecture_mode(),
                                figure=figure,
                                layers=("boundary", "ghost", "normal", "visited", "band",
                                        "explain")),
                 trace)
    lesson.stepper(run, panels=at_step)
    if not lecture_mode() and capped_run_hint(data, trace, settings, result,
                                              key=f"{PAGE}.more_epochs"):
        link("nonseparable", label="Pocket and averaged runs on these data",
             icon=":material/autorenew:")


@st.cache_data(max_entries=16, show_spinner=False)
def pair_runs(start: str, etas: tuple[float, float]) -> tuple[Trace, Trace, list]:
    """The notes' 4 points, cyclic, from one start at two etas: both traces (aligned) and
    how each run ended."""
    data = notes_four_points()
    init = "zeros" if start == "zeros" else ELSEWHERE
    traces = [record(perceptron(data.X, data.y, eta=eta, init=init, max_epochs=PAIR_EPOCHS))
              for eta in etas]
    ends = [outcome(trace, data.X, data.y, max_epochs=PAIR_EPOCHS) for trace in traces]
    return (*align(*traces), ends)


def first_disagreement(left: Trace, right: Trace) -> int | None:
    """The first step where one run updates and the other does not (None: they never differ)."""
    differ = np.flatnonzero(left.updated != right.updated)
    return int(differ[0]) if differ.size else None


@PARTS.part("pair")
def pair_section(lesson: Lesson, *_) -> None:
    """Two runs on the notes' 4 points at two etas, stepped together by the left one's controls."""
    if not lesson.widget(PAIR):
        return
    st.header("η from w₀ = 0 and from elsewhere")
    st.markdown("The notes' 4 points, cyclic order, two learning rates, stepped together by the "
                "left run's controls (the keys stay with the stepper above). Every decision is "
                "made in exact arithmetic: a tie y·a = 0 is exactly 0, and a mistake.")
    cols = st.columns(3)
    start = lesson.widget(PAIR_START, cols[0])
    etas = tuple(lesson.widget(setting, col) for setting, col in zip(PAIR_ETAS, cols[1:],
                                                                      strict=True))
    left, right, ends = pair_runs(start, etas)
    data = notes_four_points()
    differ = first_disagreement(left, right)
    ratio = Fraction(str(etas[1])) / Fraction(str(etas[0]))
    if differ is None:
        # the same updates add up to η times the same sum S: w₀ + η_r S is a multiple of
        # w₀ + η_l S at every step exactly when w₀ = 0 (or the two η are one)
        scaled = start == "zeros" or etas[0] == etas[1]
        st.success(f"Every one of the {left.steps} steps makes the same decision in both runs"
                   + (f", and the right run's weights are {written(ratio)} times the left's at "
                      "every step: w and b only scaled, so the same boundary."
                      if scaled else "."), icon=":material/check:")
    else:
        st.warning(f"The runs agree up to step {differ - 1}; at step {differ} one updates and "
                   f"the other does not. They end after {ends[0].mistakes} and "
                   f"{ends[1].mistakes} mistakes, against the bound R²/γ² "
                   f"{bound_written(data, sign=True)} of a start from 0.",
                   icon=":material/call_split:")
    stops = (left.updated | right.updated).astype(np.uint8)
    runs = [marked(perceptron_run(data, trace, {"eta": eta, "bias": True}, end,
                                  lecture=lecture_mode(), extra={"stops": stops},
                                  layers=("boundary", "ghost", "normal", "visited", "explain")),
                   trace)
            for trace, eta, end in zip((left, right), etas, ends, strict=True)]
    columns = st.columns(2)
    for col, eta, run, options in zip(
            columns, etas, runs,
            (dict(part="pair_left", lead=True, keys=False, toolbar=False, address=False),
             dict(part="pair_right", follow=f"{PAGE}.pair_left")), strict=True):
        with col:
            st.markdown(f"**η = {num(eta)}**")
            lesson.stepper(run, **options)


def current_boundary(data: Dataset, trace: Trace, k: int) -> dict:
    """The boundary at step k: w, b, its margin and the row closest to it (None if it errs)."""
    w, b = trace.W[k], float(trace.b[k])
    margin = geometric_margin(data.X, data.y, w, b)
    if not trace.exact and math.isfinite(margin):
        # a run in floats takes a y·a within rounding of 0 as a tie, a mistake (core.decimals
        # .TIE): its boundary then errs, whatever the float margin of 1e-17 says
        terms = np.abs(data.X) @ np.abs(w) + abs(b)
        if np.any(data.y * (data.X @ w + b) <= tie_tolerance(terms)):
            margin = -math.inf
    closest = (int(np.argmin(data.y * (data.X @ w + b))) if math.isfinite(margin) else None)
    return dict(w=w, b=b, margin=margin, closest=closest)


def no_gamma_words(*, bias: bool, line_separates: bool) -> str:
    """Why the bound is infinite, and what would help: the bias only when some line (not
    through the origin) separates the data."""
    if bias:
        why = ""
    elif line_separates:
        why = (" without a bias (no line through the origin separates them; turn the bias on: "
               "a line elsewhere does)")
    else:
        why = " (no line separates them, through the origin or not: the bias would not help)"
    return (f"No γ > 0 exists for these data{why}, so the bound R²/γ² is infinite: the theorem "
            "promises nothing, and the perceptron need not converge.")


def bound_row(facts: dict, margin: float, *, bias: bool, zeros_start: bool,
              exact: bool = True) -> None:
    """The bound, this boundary's margin, the maximum margin and gamma; and when the bound fails."""
    bound, maximum = facts["bound"], facts["maximum"]
    cols = st.columns(4)
    # "81" only where the bound is certified exactly (else its float is written "≈")
    exact = facts.get("exact_bound")
    cols[0].metric("Bound R²/γ²", "∞" if not math.isfinite(bound) else
                   written(exact) if exact is not None else written(bound, exact=False),
                   help="Novikoff's bound on the mistakes, with R and γ of the vectors the "
                        "perceptron sees" + (": (x, 1)" if bias else ": x"))
    cols[1].metric("Margin of this boundary", margin_text(margin, exact=exact))
    cols[2].metric("Maximum margin (plane)", written(maximum.gamma) if maximum else
                   "∞ (one class)" if facts.get("one_class") else "none")
    cols[3].metric("γ of the bound", written(facts["gamma"]) if facts["gamma"] else "none",
                   help="The best margin of a unit vector u through the origin of the space "
                        "the perceptron works in" + (", (x, 1)" if bias else ""))
    if not math.isfinite(bound):
        # one class: every far line separates it (a point at 0 keeps a line through 0 off)
        st.warning(no_gamma_words(bias=bias, line_separates=maximum is not None
                                  or bool(facts.get("one_class"))),
                   icon=":material/all_inclusive:")
        link("nonseparable", label="Non-separable data: what the perceptron does when no line "
             "separates", icon=":material/call_split:")
    elif not zeros_start:
        st.info("The theorem starts from w₀ = 0. This run starts elsewhere, so the bound is "
                "shown for reference only: it is not guaranteed here.", icon=":material/info:")


def separator_figures(lesson: Lesson, data: Dataset, facts: dict, *, bias: bool,
                      lecture: bool):
    """The perceptron's figure for the stepper, and a function that draws the maximum margin.

    Overlaid, the maximum-margin separator is part of the stepper's figure; side by side it
    is its own chart beside the stepper's. The stepper draws the moving boundary and its band.
    """
    place = lesson.aside()
    if not lecture:  # the two settings in one row over the steps: the plane under them
        place = place.container(horizontal=True, vertical_alignment="center", gap="medium")
    # on a projector the separators' layout, which the page's words name, is on the title's
    # row (the room does not see the sidebar); the ball's zoom stays in the lesson's view
    layout = lesson.widget(LAYOUT, lesson.heading() if lecture else place,
                           label_visibility="collapsed")
    whole_ball = lesson.widget(BALL, place)
    maximum = facts["maximum"]
    drawn = facts["R_plane"] if bias else facts["R"]  # the circle the chart draws
    box = plane_box(data.X, radius=drawn if whole_ball else None)
    ball = dict(radius=facts["R"], radius_plane=facts["R_plane"] if bias else None)
    u = facts["u"]
    # u lives in the space the perceptron sees: with a bias its last coordinate is the offset
    u_line = None if u is None else ((u[:2], float(u[2])) if bias else (u, 0.0))
    overlaid = layout == "Overlaid"
    # on a projector the stepper's plane has the window's height beside the steps: no title
    # over it, its legend in as few rows as it can
    # (side by side, its legend holds three entries: a narrower strip gives the plot its room)
    stepped = margin_figure(data.X, data.y, data.classes, box, height=560,
                            legend_space=150 if overlaid else 115,
                            maximum=maximum if overlaid else None,
                            bound_line=u_line if overlaid else None,
                            title="" if overlaid or lecture else "Perceptron, step by step",
                            beside=lecture, **ball)

    def beside() -> None:
        if overlaid:
            return
        left, _ = st.columns(2)
        with left:
            lesson.chart(margin_figure(data.X, data.y, data.classes, box, maximum=maximum,
                                       bound_line=u_line, height=540, title="Maximum margin",
                                       **ball),
                         key="maximum", alt="The maximum-margin separator, its band and its "
                 "support vectors circled, with the ball of radius R")

    return stepped, beside


def margin_text(margin: float, *, exact: bool = True) -> str:
    """A boundary's margin as the metric writes it: "−∞" where it errs, "≈" where the number
    is not the margin (a length through a square root, a run in floats)."""
    return written(margin, exact=exact) if math.isfinite(margin) else "−∞"


def data_margin_words(maximum, *, one_class: bool) -> str | None:
    """What Margin(D) is where no maximum-margin separator is (None where one is)."""
    if maximum is not None:
        return None
    if one_class:
        return ("All these points are of one class: every line with all of them on its side "
                "separates them, and such a line can be as far from them as you like, so "
                "Margin(D) is +∞ and no line is the maximum-margin separator.")
    return "No line separates these data, so Margin(D) is −∞ as well."


def margin_section(margin: float, maximum, *, one_class: bool = False,
                   exact: bool = True) -> None:
    """What the margin of a boundary and of the data are, with this step's numbers."""
    st.header("The margin")
    st.markdown("The margin of a boundary is the distance from it to the nearest point, when "
                "it has every point on the right side; a boundary that gets any point wrong "
                "has margin −∞. The margin of the data is the best margin any line can reach: "
                "the maximum-margin separator, whose closest points are its support vectors. "
                "The notes write Margin(D, w) = min yₙ wᵀxₙ for a w through the origin; here "
                "a boundary has a bias b and its margin is a distance, "
                "Margin(D, w, b) = min yₙ(wᵀxₙ + b)/‖w‖.")
    st.latex(margin_latex(margin, exact=exact))
    if maximum is not None:
        st.latex(r"\operatorname{Margin}(\mathcal{D}) = \sup_{\mathbf{w}, b}"
                 r"\operatorname{Margin}(\mathcal{D}, \mathbf{w}, b) "
                 + equals(maximum.gamma, latex=True)
                 + r"\quad\text{support vectors: rows } "
                 + ", ".join(str(i) for i in maximum.support))
    else:
        st.markdown(data_margin_words(maximum, one_class=one_class))


def spaces_section(facts: dict, *, bias: bool) -> None:
    """Which R and which gamma the theorem uses: those of x, or of (x, 1) with a bias."""
    maximum = facts["maximum"]
    st.header("Which R and which γ")
    st.markdown(
        "The theorem is about vectors **x** in a ball of radius R, separated by a unit vector "
        "**u** through the origin with margin γ. "
        + ("With a bias, the perceptron really works on **z** = (**x**, 1) (the notes put "
           "the constant first, (1, **x**), with the bias as w₀: the order changes nothing) "
           "and learns "
           "(**w**, b) as one vector, so R and γ are measured there: R is the radius of the "
           "(**x**, 1) vectors, larger than the plane's, and γ is the margin of the best **u** "
           "in that space, which also pays for its bias coordinate and is at most the "
           "plane's margin. R is the radius of a ball in 3-D, around the (**x**, 1); the "
           "points' plane (third coordinate 1) cuts it in the dashed circle, of radius "
           "√(R² − 1) = max ‖**x**‖. The dotted line is where **u**·(**x**, 1) = 0."
           if bias else
           "Without a bias the perceptron sees **x** itself and its boundary passes through "
           "the origin, so R is the plane's radius and γ the best margin of a line through "
           "the origin (dotted), which can be far below the maximum margin of a free line."))
    plane = maximum.gamma if maximum else math.inf if facts["one_class"] else None
    for line in spaces_latex(R_plane=facts["R_plane"], gamma_plane=plane, R=facts["R"],
                             gamma=facts["gamma"], bias=bias,
                             bound=facts["bound"] if facts["exact_bound"] is None
                             else facts["exact_bound"]):
        st.latex(line)
    if maximum is not None and bias:
        st.caption(f"The plane's own numbers would give max‖x‖²/Margin(D)² "
                   f"{equals(facts['R_plane'] ** 2 / maximum.gamma ** 2)}: not the theorem's "
                   "bound.")


def update_section(data: Dataset, trace: Trace, k: int, *, bias: bool, eta: float) -> None:
    """Why an update helps: y·a on the updated example grows by η(‖x‖² + 1), maybe not enough."""
    st.header("Why an update helps")
    if k == 0 or not trace.updated[k]:
        st.markdown("An update on **x** with label y raises y·a on that same example by "
                    + ("η(‖**x**‖² + 1)" if bias else "η‖**x**‖²")
                    + ", since y² = 1. Step to an update (N) to see it with numbers.")
        return
    n = int(trace.index[k])
    effect = update_at(data, trace, k, bias=bias, eta=eta)
    norm = r"\lVert\mathbf{x}\rVert^2" + (" + 1" if bias else "")
    # "=" only where the numbers written are the values (an exact run's long decimals too)
    # (viz.maths.chain_signs: the difference of the numbers written is η(‖x‖² + 1) only where
    # both are written as they are; η times the norm written is the gain where all three are)
    def eq(*values) -> str:
        return eq_sign(list(values), exact=effect.exact, latex=True)
    shown = eq(effect.after, effect.before)
    st.latex(rf"y\,a_{{\text{{after}}}} - y\,a_{{\text{{before}}}} "
             rf"{shown} {num(effect.after)} - "
             rf"({num(effect.before)}) {shown} \eta({norm}) {eq(eta, effect.gain / eta)} "
             rf"{num(eta)}\cdot "
             rf"{num(effect.gain / eta)} {eq(eta, effect.gain / eta, effect.gain)} "
             rf"{num(effect.gain)}")
    if not effect.exact:
        float_marker()
    st.caption(f"Step {k} updated on example {n + 1}. " + flip_sentence(effect))  # from 1


def update_at(data: Dataset, trace: Trace, k: int, *, bias: bool, eta: float) -> UpdateEffect:
    """What the update at step k did to y·a on its own example: in the run's exact numbers
    when it has them, else in floats."""
    n = int(trace.index[k])
    y = int(data.y[n])
    exact = exact_weights(trace, data.X, data.y, k - 1, eta=eta, bias=bias)
    values = exact_decimals(np.r_[data.X[n], [eta]]) if exact is not None else None
    if values is None:
        return update_effect(data.X[n], y, trace.W[k - 1], float(trace.b[k - 1]), eta=eta,
                             bias=bias)
    *x, e = values.tolist()
    return update_effect(x, y, *exact, eta=e, bias=bias)


def flip_sentence(effect: UpdateEffect) -> str:
    """Whether one update put its example on its side, or how many it needs on its own."""
    if effect.flipped:
        return "One update was enough: y·a is now above 0 there."
    if effect.needed is None:
        return ("This example is x = 0 and the run has no bias: an update on it changes "
                "nothing, and no number of them puts it on its side (y·a stays 0).")
    now = ("now 0, a tie, which is still a mistake" if effect.after == 0
           else f"still {written(effect.after, exact=effect.exact)}")
    return (f"That is not enough to flip it: y·a is {now}; on its own this example needs "
            f"{plural(effect.needed, 'update')} before y·a > 0, and other examples' updates "
            "move it meanwhile.")


def proof_section(lesson: Lesson, trace: Trace, facts: dict, k: int, *, bias: bool, eta: float,
                  zeros_start: bool) -> None:
    """The proof's two claims, update by update, up to this step; only why not, without u.

    (It returns rather than stop the page: a stopped run draws nothing more, and in a class the
    strip that follows the lecturer is drawn after the lesson.)"""
    st.header("The proof, update by update")
    u = facts["u"]
    if u is None:
        st.markdown("The proof needs a unit vector **u** with margin γ > 0; these data have none.")
        return
    updates = np.concatenate([[0], trace.update_positions])
    seen = np.column_stack([trace.W, trace.b]) if bias else trace.W
    projections, squared = proof_quantities(seen[updates], u)
    mistakes_now = int(trace.mistakes[k])
    st.markdown(
        "Every mistake adds η y**z** to the weights (here **z** = "
        + ("(**x**, 1)" if bias else "**x**") + "). Because y **u**·**z** ≥ γ, each update raises "
        "**u**·**w** by at least ηγ (claim 1); because the example was a mistake, y **w**·**z** "
        "≤ 0, so it raises ‖**w**‖² by at most η²R² (claim 2). Together "
        "tηγ ≤ **u**·**w**ₜ ≤ ‖**w**ₜ‖ ≤ ηR√t, so t ≤ R²/γ².")
    st.latex(rf"\mathbf{{u}} {eq_sign(list(u), latex=True)} {vec(u)},\quad \gamma "
             rf"{equals(facts['gamma'], latex=True)},\quad R {equals(facts['R'], latex=True)},"
             rf"\quad \eta {equals(eta, latex=True)},\quad t = {mistakes_now}")
    if zeros_start:
        note = ("The run starts from w₀ = 0 as the theorem does. "
                + ("With η ≠ 1 both sides scale: u·wₜ ≥ tηγ and ‖wₜ‖² ≤ tη²R², and the bound "
                   "on t is the same." if eta != 1 else ""))
    else:
        start = ", ".join(num(v) for v in seen[0])
        note = (f"This run starts from w₀ = ({start}): the "
                "lines start from u·w₀ and ‖w₀‖² (both claims still hold), but the bound "
                "R²/γ² on t needs w₀ = 0.")
    st.caption(note)
    lesson.chart(
        proof_figure(projections, squared, gamma=facts["gamma"], R=facts["R"], eta=eta,
                     start_projection=float(projections[0]), start_squared=float(squared[0]),
                     current=mistakes_now),
        key="proof", alt="u dot w_t against t gamma, and the squared norm of w_t against "
        "t R squared, over the updates, with the current update highlighted")


@PARTS.part("experiment")
def experiment_section(lesson: Lesson, *_) -> None:
    """Mistakes against the bound over many generated data sets, run on request."""
    st.header("Experiment: how loose is the bound?")
    st.markdown(f"Generated separable sets ({SWEEP_POINTS} points, margins "
                f"{', '.join(f'{m:g}' for m in SWEEP_MARGINS)}, {len(SWEEP_SEEDS)} seeds each), "
                f"each trained from w = 0 with η = 1 in all {len(ORDERS)} visiting orders. Every "
                "run should sit on or below the line mistakes = bound.")
    if st.button("Run the experiment", icon=":material/science:", key=f"{PAGE}.run"):
        st.session_state[f"{PAGE}.ran"] = True
    if not st.session_state.get(f"{PAGE}.ran"):
        return
    runs = sweep()
    labels = [f"margin {r.margin:g}, seed {r.seed}, {r.order}" for r in runs.itertuples()]
    lesson.chart(experiment_figure(runs["bound"], runs["mistakes"], runs["order"], labels),
                 key="experiment", alt="Mistakes made against the bound R squared over "
                 "gamma squared for many runs, with the line y = x")
    st.caption(experiment_sentence(runs))


def experiment_sentence(runs: pd.DataFrame) -> str:
    """What the sweep found, from its runs: within the bound or not, how close, and how the
    mistakes follow the margin."""
    ratio = runs["mistakes"] / runs["bound"]
    within = int((runs["mistakes"] <= runs["bound"]).sum())
    text = (f"{plural(len(runs), 'run')}: {within} within the bound. Mistakes were at most "
            f"{ratio.max():.0%} of the bound, {ratio.median():.0%} in the median run")
    text += (": the guarantee holds with room to spare" if ratio.max() < 1 else
             ": some run reached the bound" if within == len(runs) else
             ": some run passed the bound")
    by_margin = runs.groupby("margin")["mistakes"].mean().sort_index()
    trend = float(np.corrcoef(np.arange(len(by_margin)), by_margin.to_numpy())[0, 1]) \
        if len(by_margin) > 1 and by_margin.std() > 0 else 0.0
    if trend < 0:
        return text + (". The mean mistakes fall from "
                       f"{by_margin.iloc[0]:.1f} at margin {by_margin.index[0]:g} to "
                       f"{by_margin.iloc[-1]:.1f} at {by_margin.index[-1]:g}: a smaller margin "
                       "(a larger bound) tends to cost more mistakes.")
    return text + (". Here the mean mistakes do not fall as the margin grows "
                   f"({by_margin.iloc[0]:.1f} at margin {by_margin.index[0]:g}, "
                   f"{by_margin.iloc[-1]:.1f} at {by_margin.index[-1]:g}).")
