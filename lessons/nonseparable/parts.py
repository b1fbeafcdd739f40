"""The non-separable lesson's own pieces: settings, cached analysis, the run it shows, panels."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from core.cycles import CYCLE_EPOCHS, CYCLE_VISITS, Cycle
from core.exact_runs import Departure, exact_perceptron
from core.geometry import non_separable_bound
from core.nonseparable import Analysis, analyse
from core.pocket import EpochReport
from core.soft_margin import soft_margin
from core.trace import STEP_LIMIT, Outcome, Trace, outcome, record
from core.words import plural
from datasets import Dataset
from lessons import link
from lessons.nonseparable.figures import cycle_latex, errors_figure, path_note, trajectory_figure
from ui.budget import progress
from ui.cached_runs import perceptron_trace
from ui.floats import marked
from ui.lecture import lecture_mode
from ui.lesson import Lesson, Parts
from ui.settings import DATA_CHOICE_KEY, Setting
from ui.stepper import perceptron_run
from viz.maths import eq_sign, equals, num, written

PAGE = "nonseparable"
SUGGESTED = {"XOR (0/1)": "XOR (0/1)", "XOR (±1)": "XOR (±1)",
             "Noisy blobs (generator)": "Noisy blobs",
             "Iris: versicolor vs virginica (petal)": "Iris versicolor / virginica"}
# The page's own search for a repeat stops after this many visits (about a second on this
# machine, and enough for every built-in set); a button searches on to CYCLE_VISITS.
VIEW_VISITS = 200_000
LONGER = f"{PAGE}.longer"  # the data and settings the student asked the longer search for

# which part of a run that cycles is stepped through: from the start, or one period
WATCH = Setting(f"{PAGE}.watch", "watch", "choice", "start", "Watch", widget="segmented",
                options=("start", "cycle"))
THREE_D = Setting(f"{PAGE}.three_d", "3d", "bool", False, "3-D: (w₁, w₂, b)", widget="toggle")
SETTINGS = (WATCH, THREE_D)
# The parts, each drawn from the data, the run settings and what the page shows of them
# (Shown), one after the other: the run first on every screen, the picture leading.
PARTS = Parts(lead="run")


def choose(name: str) -> None:
    """Switch the sidebar's data set."""
    st.session_state[DATA_CHOICE_KEY] = name


def suggestions() -> None:
    """A row of buttons for data sets that cannot be separated; the current one highlighted.
    On the page on a projector too: the page's words name them (in the sidebar, which a
    projector keeps closed, the room read "pick one of the sets" and saw none)."""
    cols = st.columns(len(SUGGESTED) + 1, vertical_alignment="center")
    cols[0].markdown("**Try:**")
    for col, (name, label) in zip(cols[1:], SUGGESTED.items(), strict=True):
        col.button(label, key=f"{PAGE}.use.{label}", on_click=choose, args=(name,),
                   width="stretch",
                   type="primary" if st.session_state.get(DATA_CHOICE_KEY) == name else "secondary")


@st.cache_data(max_entries=32, show_spinner=False)
def analysis(X, y, settings: dict, visits: int) -> Analysis:
    """core.nonseparable.analyse, cached, with a progress bar while it runs."""
    with progress(f"Looking for a repeat (up to {visits:,} visits) and counting errors per "
                  "epoch…") as report:
        return analyse(X, y, **settings, max_visits=visits, progress=report)


def _asked(X, y, settings: dict) -> str:
    """What the longer search was asked for: these points and settings."""
    return f"{hash((X.tobytes(), y.tobytes()))}:{sorted(settings.items())}"


def search_longer(asked: str) -> None:
    """Remember that the student asked for the longer search on this data and settings."""
    st.session_state[LONGER] = asked


@st.cache_data(max_entries=32, show_spinner=False)
def exact_trace(X, y, settings: dict, rows, first: int, last: int):
    """Every visit of the exact run from epoch ``first`` to ``last``, recorded."""
    steps = exact_perceptron(X, y, eta=settings["eta"], init=settings["init"],
                             bias=settings["bias"], rows=rows, max_epochs=last,
                             every="visit", from_epoch=first)
    return record(steps, limit=STEP_LIMIT)


@dataclass(frozen=True)
class Shown:
    """What the page shows: the analysis, the run to step through, and the per-epoch report.

    ``exact``: the exact search ran (a fixed order with short decimals); ``found``: it found
    a repeat; ``inside``: the run has epochs before its loop, so "In the cycle" is offered;
    ``part``: which of the two is watched; ``asked``: this data and these settings, for the
    longer search; ``more``: whether the longer search would go further than this one.
    """

    separable: bool
    cycle: Cycle | None
    exact: bool
    found: bool
    inside: bool
    part: str
    trace: Trace
    result: Outcome
    report: EpochReport
    departure: Departure | None
    asked: str
    more: bool


def what_to_show(X, y, settings: dict, *, watch: str | None = None) -> Shown:
    """Analyse the data and pick the run to show; ValueError when the settings cannot train.

    ``watch``: the part of a cycling run to step through (WATCH's value) as a link names it,
    for a page that is not this one (a lecture plan's slide, ui/plan_runs.py); by default the
    session's, and the longer search if this session asked for it."""
    n = len(y)
    asked = _asked(X, y, settings)
    longer = watch is None and st.session_state.get(LONGER) == asked
    analysed = analysis(X, y, settings, CYCLE_VISITS if longer else VIEW_VISITS)
    separable, rows, cycle = analysed.separable, analysed.rows, analysed.cycle
    exact = cycle is not None and cycle.status != "inexact"
    found = exact and cycle.status == "cycle"
    inside = found and cycle.first > 1  # else the run starts inside the loop
    chosen = st.session_state[WATCH.key] if watch is None else watch
    part = (chosen or "start") if inside else "start"
    if part == "cycle":
        trace = exact_trace(X, y, settings, rows, cycle.first, cycle.repeat - 1)
        result = Outcome(False, int(trace.mistakes[-1]), int(trace.epoch[-1]),
                         f"One period: epochs {cycle.first} to {cycle.repeat - 1}; after its "
                         "last step the weights are back where it began." if trace.complete
                         else f"The first {trace.steps:,} steps of the period's "
                         f"{cycle.period * n:,}.")
    elif exact:
        trace = exact_trace(X, y, settings, rows, 1, settings["max_epochs"])
        result = outcome(trace, X, y, max_epochs=settings["max_epochs"])
    else:
        trace = perceptron_trace(X, y, settings)
        result = outcome(trace, X, y, max_epochs=settings["max_epochs"])
    more = exact and cycle.budget < min(CYCLE_EPOCHS, CYCLE_VISITS // n)
    return Shown(separable, cycle, exact, found, inside, part, trace, result, analysed.report,
                 analysed.departure, asked, more)


@PARTS.part("run")
def run_views(lesson: Lesson, data: Dataset, settings: dict, shown: Shown) -> None:
    """The run stepped in the page, then the path of the weights in weight space."""
    cycle, trace = shown.cycle, shown.trace
    if shown.inside:
        labels = {"start": "From the start",
                  "cycle": f"In the cycle (from epoch {cycle.first})"}
        lesson.widget(WATCH, lesson.aside(), format_func=labels.get, label_visibility="collapsed")
    if shown.found:
        path = dict(path_w=cycle.path_w, path_b=cycle.path_b, cycle_start=cycle.cycle_start,
                    cycle_updates=cycle.updates)
    elif shown.exact:
        path = dict(path_w=cycle.path_w, path_b=cycle.path_b)
    else:
        moves = np.concatenate([[0], trace.update_positions])
        path = dict(path_w=trace.W[moves], path_b=trace.b[moves])
    loop = (path["cycle_start"], path["cycle_updates"]) \
        if path.get("cycle_start") is not None else None
    thinned = path_note(len(path["path_w"]), loop)

    def weight_space(k: int) -> None:
        """The path of the weights with the step's weights on it (follows the step)."""
        three_d = lesson.widget(THREE_D)
        lesson.chart(trajectory_figure(**path, current=(trace.W[k], trace.b[k]),
                                       three_d=three_d),
                     key="trajectory",
                     alt="Weight space: the path of (w1, w2) after each update, coloured by b; "
                         "the loop it closes is drawn thick")
        st.caption("Each dot is the weights after one update; colour is b. "
                   + ("The thick loop is one period: it ends where it starts. "
                      if shown.found else "") + thinned)

    run = perceptron_run(data, trace, settings, shown.result, lecture=lecture_mode(),
                         layers=("boundary", "ghost", "normal", "visited", "errors", "explain"),
                         words={"window": "of the period"})
    run = marked(run, trace)
    lesson.stepper(run, panels=weight_space)


@PARTS.part("verdict")
def verdict(lesson: Lesson, data: Dataset, settings: dict, shown: Shown) -> None:
    """Data to try (under the run: the picture leads), then whether the data is separable, has
    no fixed order, a cycle found or none found yet; and where floats part."""
    # on the page on a projector too: the verdict below names them ("pick one of the sets")
    suggestions()
    cycle = shown.cycle
    if shown.separable:
        ran = (f" (here after {plural(cycle.mistakes, 'mistake')} in "
               f"{plural(cycle.epochs, 'epoch')})"
               if shown.exact and cycle.status == "converged" else "")
        st.info(f"This data is linearly separable: the perceptron converges{ran}, so there is "
                "no cycle. Pick one of the sets to try, or see the step-through lesson.",
                icon=":material/check_circle:")
        link("step_through", label="Step through a converging run", icon=":material/footprint:")
    elif cycle is None:
        st.info("This order changes from epoch to epoch, so no epoch has to repeat an earlier "
                "one." + bounded_sentence(shown.report) + " Choose the cyclic order (sidebar) "
                "to look for the cycle.",
                icon=":material/shuffle:")
    elif shown.found:
        st.success(cycle.message, icon=":material/autorenew:")
        # the run has the first screen; the repeat's numbers are a click away
        with st.expander("The repeat, in numbers"):
            for line in cycle_latex(cycle):
                st.latex(line)
        if cycle.first > 1:
            st.caption(f"Epochs 1 to {cycle.first - 1} are the way in; choose *In the cycle* "
                       "to step through one period.")
    elif cycle.status == "none":
        n = shown.report.n
        st.warning(f"No repeat within the first {cycle.epochs:,} epochs ({cycle.epochs * n:,} "
                   "visits)." + bounded_sentence(shown.report)
                   + (" The page stops its first search there, so that it opens quickly for "
                      "everyone." if shown.more else ""),
                   icon=":material/hourglass_bottom:")
        if shown.more:
            st.button(f"Search on, up to {CYCLE_VISITS:,} visits",
                      key=f"{PAGE}.search_longer", on_click=search_longer, args=(shown.asked,),
                      icon=":material/search:")
    else:
        st.warning(cycle.message + bounded_sentence(shown.report),
                   icon=":material/hourglass_bottom:")
    departure = shown.departure
    if departure is not None:
        st.caption(
            f"Rounding alone would part from exact arithmetic at step {departure.t:,} (epoch "
            f"{departure.epoch}, example {departure.index + 1}): there the exact a "
            f"{equals(departure.exact_activation)}, while in floating point it comes out "
            f"as {departure.float_activation:.3g}. Every run on this page, the error chart's "
            "included, decides exactly.")


@PARTS.part("errors")
def errors_section(lesson: Lesson, data: Dataset, settings: dict, shown: Shown) -> None:
    """Training errors per epoch of the last, pocket and averaged weights, and the largest ‖w‖."""
    report, cycle = shown.report, shown.cycle
    n, max_epochs = len(data.y), settings["max_epochs"]
    st.header("Training errors per epoch: last, pocket, averaged")
    lesson.chart(errors_figure(report, cycle=(cycle.first, cycle.repeat) if shown.found
                               else None),
                 key="errors",
                 alt="Training errors at the end of each epoch for the last, pocket and "
                        "averaged weights, and the largest norm of w in each epoch")
    last = int(report.epoch[-1]) if len(report.epoch) else 0
    cols = st.columns(4)
    for col, label, errors in ((cols[0], f"Last weights, epoch {last}", report.errors_last),
                               (cols[1], "Pocket (best seen)", report.errors_pocket),
                               (cols[2], "Averaged", report.errors_averaged)):
        col.metric(label, f"{errors[-1]} / {n}")
    cols[3].metric("Largest ‖w‖", written(float(np.max(report.max_norm))))
    st.caption(
        f"{'Epochs' if report.complete else 'The first'} 1–{last} of the run"
        + (f" (past the {max_epochs} max epochs, to show a whole period)"
           if last > max_epochs else "")
        + f", out of {n} examples. " + errors_sentence(report))
    st.caption(POCKET)


@st.cache_data(max_entries=16, show_spinner=False)
def freund_schapire(X, y, bias: bool, passes: int):
    """Freund and Schapire's bound for these passes, with u the soft-margin SVM's (w, b)."""
    sm = soft_margin(X, y, C=1.0)
    u = np.r_[sm.w, sm.b] if bias else np.asarray(sm.w)
    if not np.any(u):
        return None
    return non_separable_bound(X, y, u, passes=passes, bias=bias)


# The pocket the page runs, the one the seeds' book chapter describes, and Gallant's original.
POCKET = (
    "The pocket here is the variant of the book chapter *The Perceptron* in Kowalczyk's "
    "*Support Vector Machines Succinctly*: the perceptron runs on unchanged, and a new w goes "
    "into the pocket only when it makes fewer training errors than the one already there. "
    "Gallant's original pocket algorithm keeps instead the weights with the longest run of "
    "consecutive correct classifications (his ratchet variant also asks for fewer training "
    "errors). The averaged perceptron is the notes' Algorithm 2: the mean of the weights after "
    "every visit.")


def errors_sentence(report: EpochReport) -> str:
    """What the chart shows about the last, pocket and averaged weights, from the report."""
    last, pocket, averaged = report.errors_last, report.errors_pocket, report.errors_averaged
    if not len(last):
        return "No epoch was visited."

    def spread(errors) -> str:
        low, high = int(errors.min()), int(errors.max())
        return f"stay at {low}" if low == high else f"move between {low} and {high}"

    if len(set(last.tolist())) == 1:
        head = f"The last weights make {int(last[0])} errors at the end of every epoch"
        ends = [*(float(v) for v in report.ends_w[0]), float(report.ends_b[0])]
        head += (": they are the same weights at every epoch's end, (w, b) "
                 f"{eq_sign(ends)} ({', '.join(num(float(v)) for v in report.ends_w[0])}, "
                 f"{num(float(report.ends_b[0]))})." if report.same_ends else ".")
    else:
        changes = int(np.count_nonzero(np.diff(last)))
        head = (f"The last weights' errors move between {int(last.min())} and "
                f"{int(last.max())} from one epoch's end to the next (they change "
                f"{plural(changes, 'time')} in {plural(len(last), 'epoch')}).")
    top = float(np.max(report.max_norm))
    settled = int(np.flatnonzero(pocket != pocket[-1])[-1] + 2) if np.any(pocket != pocket[-1]) \
        else 1
    tail = max(1, len(averaged) // 2)
    return (f"{head} ‖w‖ never passes {written(top)}. The pocket's errors are {int(pocket[-1])} "
            f"at every epoch's end from epoch {settled} on; over the last "
            f"{plural(tail, 'epoch')} the averaged weights' errors {spread(averaged[-tail:])} "
            f"and the last weights' errors {spread(last[-tail:])}.")


def bounded_sentence(report: EpochReport) -> str:
    """The weights stay bounded while the errors move (or do not), from the report."""
    if not len(report.epoch):
        return ""
    last = report.errors_last
    moving = ("the last weights' errors move between "
              f"{int(last.min())} and {int(last.max())}" if last.min() != last.max()
              else f"the last weights make {int(last[0])} errors at every epoch's end")
    return (f" In the {plural(len(report.epoch), 'epoch')} charted below ‖w‖ never passes "
            f"{written(float(np.max(report.max_norm)))} while {moving}.")


@PARTS.part("bound")
def bound_section(lesson: Lesson, data: Dataset, settings: dict, shown: Shown) -> None:
    """Freund and Schapire's mistake bound for non-separable data, beside this run's mistakes."""
    report = shown.report
    if shown.separable or settings["init"] != "zeros" or not len(report.epoch):
        return
    passes = int(report.epoch[-1])
    found = freund_schapire(data.X, data.y, settings["bias"], passes)
    if found is None:
        return
    bound, gamma = found
    made = int(np.sum(report.updates))
    st.header("A mistake bound without separability")
    cols = st.columns(2)
    cols[0].metric(f"Mistakes in {plural(passes, 'epoch')}", f"{made:,}")
    cols[1].metric("Freund and Schapire's bound", written(bound) if np.isfinite(bound) else "∞")
    st.latex(r"\text{mistakes} \le \left(\frac{R + D}{\gamma}\right)^2,\quad "
             r"D = \sqrt{\textstyle\sum_{\text{visits}} \max(0,\ \gamma - y_n\,"
             r"\mathbf{u}^\top\mathbf{z}_n)^2},\quad \gamma " + equals(gamma, latex=True))
    st.caption("For any unit u and any γ > 0, from w = 0 (here u is the soft-margin SVM's "
               "direction with C = 1, in the space of (x, 1), and γ the best of a grid). "
               "Every visit of an example that u leaves short of γ adds to D, so the bound "
               f"grows with the epochs ({passes} here): on data no line separates, a bound "
               "on mistakes has to depend on how long the run is.")

