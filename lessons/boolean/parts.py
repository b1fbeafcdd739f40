"""The Boolean lesson's own pieces: URL fields, the weight controls, and its sections."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.boolean import (
    ENCODINGS,
    FUNCTIONS,
    Training,
    TruthTable,
    hand_weights,
    lift,
    rows_right,
    train,
    truth_table,
)
from core.line_labelings import best_line, labelings
from core.parity import PARITY_BITS, parity
from core.trace import training_errors
from core.words import plural
from lessons import link
from lessons.boolean.figures import (
    curve_equation,
    curve_figure,
    curve_words,
    lifted_figure,
    plain_equation,
    truth_figure,
    truth_frame,
    worked_lines,
)
from ui.class_questions import QUICK, choice_ask
from ui.lecture import lecture_mode
from ui.lesson import Lesson, Parts
from ui.settings import Setting
from ui.state import keep_alive

PAGE = "boolean"
ENCODING_LABELS = {"01": "0 / 1 (slides)", "pm1": "−1 / +1 (book)"}
WEIGHTS = ("w1", "w2", "b")
# The plane's height on a projector: from under the slim title to the foot of a 720 px window
LECTURE_HEIGHT = 640
PLANE_HEIGHT = 540  # a tablet on its side: the plane down to the window's foot
LIMIT = 40.0  # range of the weight sliders: wide enough for the slides' 20, 20, -30

FUNCTION = Setting(f"{PAGE}.function", "fn", "choice", "AND", "Function", widget="segmented",
                   options=FUNCTIONS)
ENCODING = Setting(f"{PAGE}.encoding", "enc", "choice", "01", "Truth values", widget="radio",
                   options=ENCODINGS, labels=ENCODING_LABELS)
# The weights have no fixed default (each function has its own), so they are always linked;
# the number box beside each slider takes any value, so links do not snap to the slider's grid.
WEIGHT_SETTINGS = tuple(
    Setting(f"{PAGE}.{name}", name, "float", None, label, widget="slider", low=-LIMIT,
            high=LIMIT, step=0.5, snap=0.0)
    for name, label in zip(WEIGHTS, ("w₁", "w₂", "b"), strict=True))
SETTINGS = (FUNCTION, ENCODING, *WEIGHT_SETTINGS)
# The parts, each drawn for the function and the encoding chosen at the top; the reader picks
# one at a time (a page of all five built every element of them before its first picture), on
# a projector in the sidebar, so that the plane has the height under the title
PARTS = Parts(pick=True, pick_aside=True)


def separable_ask(params: dict[str, str]) -> dict:
    """The class's quick question on this lesson (ui.class_questions.QUICK): can a line
    separate the function's rows? Right: what the exact search over every line finds."""
    function, encoding = FUNCTION.default, ENCODING.default
    try:
        function = FUNCTION.parse(params.get(FUNCTION.param, function))
        encoding = ENCODING.parse(params.get(ENCODING.param, encoding))
    except ValueError:
        pass  # the page shows its defaults for a value it cannot read: so does the question
    table = truth_table(function, encoding=encoding)
    best = best_line(table.X, table.y)
    return choice_ask(f"Can a line separate the rows of {function}, true from false?",
                      ["Yes", "No"], [0 if best.correct == best.total else 1])


QUICK[PAGE] = separable_ask


def keep_state() -> None:
    """The hand-made weights of the function and encoding as defaults, kept across pages."""
    preset = hand_weights(st.session_state[f"{PAGE}.function"],
                          encoding=st.session_state[f"{PAGE}.encoding"])
    keep_alive(dict(zip((f"{PAGE}.{name}" for name in WEIGHTS), (*preset.w, preset.b),
                        strict=True)))
    keep_alive({f"{PAGE}.{name}_box": st.session_state[f"{PAGE}.{name}"] for name in WEIGHTS})


def set_weights(w, b) -> None:
    """Put (w1, w2, b) in both the sliders and the number boxes."""
    for name, value in zip(WEIGHTS, (*w, b), strict=True):
        value = float(np.clip(value, -LIMIT, LIMIT))
        st.session_state[f"{PAGE}.{name}"] = value
        st.session_state[f"{PAGE}.{name}_box"] = value


def load_hand_weights() -> None:
    """The hand-made weights of the chosen function and encoding."""
    hand = hand_weights(st.session_state[f"{PAGE}.function"],
                        encoding=st.session_state[f"{PAGE}.encoding"])
    set_weights(hand.w, hand.b)


def copy(source: str, target: str) -> None:
    """Keep a slider and its number box equal."""
    st.session_state[target] = st.session_state[source]


def current_weights() -> tuple[np.ndarray, float]:
    """The (w, b) the sliders hold."""
    w = np.array([st.session_state[f"{PAGE}.w1"], st.session_state[f"{PAGE}.w2"]])
    return w, float(st.session_state[f"{PAGE}.b"])


@st.cache_data(show_spinner=False)
def trainings(encoding: str) -> pd.DataFrame:
    """The perceptron (cyclic, eta 1, zeros) on every function of the encoding."""
    rows = []
    for function in FUNCTIONS:
        table = truth_table(function, encoding=encoding)
        run = train(table.X, table.y)
        rows.append({"function": function, "mistakes": run.mistakes, "w₁": run.w[0],
                     "w₂": run.w[1], "b": run.b, "how the run ends": run.ending})
    return pd.DataFrame(rows).set_index("function")


def weights_panel(lesson: Lesson, table: TruthTable, function: str, encoding: str, w,
                  b: float) -> None:
    """The weight sliders and boxes, the hand-made weights, and the truth table they give."""
    st.markdown("**Weights** (slider or box; they stay in step)")
    for setting in WEIGHT_SETTINGS:
        c1, c2 = st.columns([0.68, 0.32])
        box = f"{setting.key}_box"
        lesson.widget(setting, c1, format="%g", on_change=copy, args=(setting.key, box))
        c2.number_input(setting.label, -LIMIT, LIMIT, step=setting.step, format="%g", key=box,
                        on_change=copy, args=(box, setting.key), label_visibility="hidden")
    hand = hand_weights(function, encoding=encoding)
    st.button("Hand-made weights", icon=":material/back_hand:", key=f"{PAGE}.hand",
              on_click=load_hand_weights, help=hand.source.capitalize())
    st.caption(f"Hand-made weights for {function}: a = {plain_equation(hand.w, hand.b)}; "
               f"{hand.source}.")
    right_rows = rows_right(table, w, b)
    st.metric("Rows right", f"{int(right_rows.sum())} / 4")
    st.dataframe(truth_frame(table, w, b), key=f"{PAGE}.table")


@PARTS.part("weights", "Weights by hand")
def weights_part(lesson: Lesson, function: str, encoding: str) -> None:
    """The function's rows in the plane under the line of the weights, the weights, and each
    row's activation."""
    table = truth_table(function, encoding=encoding)
    w, b = current_weights()
    if function == "NOT":
        st.info("NOT has one input. To keep it in the same plane it gets a second input x₂ that "
                "it ignores: each value of x₁ appears twice, and a line computing NOT need not "
                "depend on x₂ (the book's −x₁ has w₂ = 0).", icon=":material/info:")

    lecture = lecture_mode()
    left, right = st.columns([0.66, 0.34] if lecture else [0.6, 0.4])
    with right:
        if not lecture:  # (on a projector, at the sidebar's foot)
            lesson.widget(ENCODING, on_change=load_hand_weights)
        weights_panel(lesson, table, function, encoding, w, b)
    with left:
        # the plane without a title: the picker over it names the function, the truth values
        # beside it (and its ticks) the encoding; on a projector it takes the window's height
        lesson.chart(truth_figure(table, w, b, **(
            dict(height=LECTURE_HEIGHT, legend_space=56) if lecture else
            dict(height=PLANE_HEIGHT))),
                     key="plane", alt=f"The four rows of {function} in the plane, the line of the "
                     "current weights, and which rows it gets right")
    st.markdown("**The activation on each row**\n\n"
                + "\n".join(f"- {line}" for line in worked_lines(table, w, b)))


@PARTS.part("training", "Train on each")
def training_section(lesson: Lesson, function: str, encoding: str) -> None:
    """The perceptron trained on every function, and a button to use its weights."""
    st.header("Train the perceptron on each function")
    st.markdown("The lecture notes' algorithm: rows in order (cyclic), η = 1, starting from "
                "**w** = 0, b = 0, until a whole pass makes no mistake.")
    runs = trainings(encoding)
    st.dataframe(runs, key=f"{PAGE}.runs")
    chosen = runs.loc[function]
    converged = chosen["how the run ends"].startswith("converged")
    if not converged:
        st.warning(f"{function}: {chosen['how the run ends']}"
                   + (". It never converges: no line separates it." if function == "XOR"
                      else "."), icon=":material/autorenew:")
    else:
        st.success(f"{function} converges after {plural(chosen['mistakes'], 'mistake')}: a = "
                   f"{plain_equation((chosen['w₁'], chosen['w₂']), chosen['b'])}.",
                   icon=":material/check_circle:")
    st.button("Use the trained weights", icon=":material/model_training:", key=f"{PAGE}.trained",
              on_click=set_weights, args=((chosen["w₁"], chosen["w₂"]), chosen["b"]),
              disabled=not converged)


@PARTS.part("xor", "Why not XOR")
def xor_section(lesson: Lesson, function: str, encoding: str) -> None:
    """Minsky and Papert's argument, and the best any line does on XOR, found by search."""
    st.header("Why no line computes XOR")
    xor = truth_table("XOR", encoding=encoding)
    best = best_line(xor.X, xor.y)
    ways = labelings(xor.X)
    F, T = ("0", "1") if encoding == "01" else ("-1", "+1")
    lecture = lecture_mode()
    # the picture first (on a phone, over the argument), the argument beside it
    picture, words = st.columns([0.5, 0.5] if lecture else [0.55, 0.45])
    with picture:
        # on a projector, the height under the title row and this part's header
        lesson.chart(truth_figure(xor, best.w, best.b, line_name="a best line", **(
            dict(height=LECTURE_HEIGHT - 80, legend_space=56) if lecture else
            dict(height=PLANE_HEIGHT))),
                     key="best", alt="XOR with the best line found: three rows right, one wrong")
    with words:
        st.markdown("Minsky and Papert (1969): no perceptron lin(**x**) = **w**·**x** + b "
                    "satisfies all four of")
        lin = r"\mathrm{lin}"
        st.latex(rf"\begin{{aligned}} {lin}({F},{F}) < 0, &\quad {lin}({T},{T}) < 0, \\ "
                 rf"{lin}({F},{T}) > 0, &\quad {lin}({T},{F}) > 0. \end{{aligned}}")
        middle = "w_1 + w_2 + 2b" if encoding == "01" else "2b"
        st.markdown(f"Add the two that must be negative, then the two that must be positive: "
                    f"both sums are ${middle}$, yet the first is negative and the second "
                    "positive.")
        st.latex(rf"\begin{{aligned}} {lin}({F},{F}) + {lin}({T},{T}) &= {middle} \\ "
                 rf"&= {lin}({F},{T}) + {lin}({T},{F}) \end{{aligned}}")
        st.metric("Best any line does on XOR", f"{best.correct} / {best.total}")
        st.markdown(
            f"An exact search over every line: lines can split these four corners in "
            f"{len(ways)} of the 2⁴ = 16 possible ways, and XOR and its negation are the two "
            f"they miss. The best line gets {best.correct} rows right, never 4.")
        st.markdown("So the perceptron cannot stop on XOR: every pass finds a mistake. "
                    + xor_run_sentence(train(xor.X, xor.y)))
        link("nonseparable", label="More in Non-separable data", icon=":material/autorenew:",
             where=words)


def xor_run_sentence(run: Training) -> str:
    """What the notes' run does on XOR, from its exact search for a repeat."""
    cycle = run.cycle
    if cycle is not None and cycle.first == 1 and cycle.period == 1:
        return (f"From **w** = 0 it makes the same {plural(cycle.updates, 'update')} every "
                "epoch, which cancel, and the weights come back to 0: the run cycles forever.")
    if cycle is not None:
        return (f"From **w** = 0 the weights at the start of epoch {cycle.repeat} equal those "
                f"at the start of epoch {cycle.first}: from there the run repeats every "
                f"{plural(cycle.period, 'epoch')}, forever.")
    return f"From **w** = 0 it is still making mistakes after {plural(run.epochs, 'epoch')}."


@PARTS.part("lift", "A new feature")
def lift_section(lesson: Lesson, function: str, encoding: str) -> None:
    """XOR with the feature x1*x2: separable in 3-D, a hyperbola back in the plane."""
    st.header("What fixes it: a new feature x₁x₂")
    xor = truth_table("XOR", encoding=encoding)
    lifted = train(lift(xor.X), xor.y)
    wrong = training_errors(lift(xor.X), xor.y, lifted.w, lifted.b)
    st.markdown(
        "Give each row a third coordinate x₁·x₂. In 3-D the four points are separable by a "
        "plane, and the same perceptron (cyclic, η = 1, zeros) "
        + (f"converges after {plural(lifted.mistakes, 'mistake')}:" if lifted.converged else
           f"ends this way: {lifted.ending}:"))
    st.latex(r"a = " + curve_equation(lifted.w, lifted.b).removesuffix(" = 0"))
    st.markdown(f"Back in the plane that plane is {curve_words(lifted.w, lifted.b)}, and it gets "
                + ("every row of XOR right." if wrong == 0 else
                   f"{4 - wrong} of the 4 rows of XOR right."))
    c3d, c2d = st.columns(2)
    with c3d:
        lesson.chart(lifted_figure(xor, lifted.w, lifted.b), key="lifted",
                     alt="XOR lifted to three dimensions with the separating plane")
    with c2d:
        lesson.chart(curve_figure(xor, lifted.w, lifted.b), key="curve",
                     alt="The separating plane seen in the input plane: a hyperbola around XOR")


def cycling(run: Training) -> str:
    """How a run on parity ends, in a few words."""
    cycle = run.cycle
    if cycle is None:
        return run.ending
    where = "back at w = 0 every" if cycle.first == 1 else f"from epoch {cycle.first}, every"
    return f"cycles: {where} {plural(cycle.period, 'epoch')}, {plural(cycle.updates, 'mistake')}"


def lifted_run(separable: bool, run: Training) -> str:
    """A lifted parity's verdict: separable and how fast, or not and what the run does."""
    if separable:
        return f"yes: converges, {plural(run.mistakes, 'mistake')}"
    return "no; " + cycling(run)


@st.cache_data(show_spinner=False)
def parity_frame(encoding: str) -> pd.DataFrame:
    """n-bit parity for each n: best hyperplane, separability, the run, and the lifts."""
    rows = []
    for n in PARITY_BITS:
        facts = parity(n, encoding=encoding)
        row = {"n": n, "rows": 2 ** n, "best any hyperplane": f"{facts.best} / {2 ** n}",
               "separable": "yes" if facts.separable else "no",
               "perceptron from w = 0": cycling(facts.run),
               "separable with x₁⋯xₙ added": lifted_run(*facts.lifts["product"])}
        if "signed product" in facts.lifts:
            row["separable with ∏(2xᵢ − 1) added"] = lifted_run(*facts.lifts["signed product"])
        rows.append(row)
    return pd.DataFrame(rows)


@st.cache_data(show_spinner=False)
def parity_run_sentence(encoding: str) -> str:
    """What the notes' run does on every parity in the table, from the runs themselves."""
    runs = {n: parity(n, encoding=encoding).run for n in PARITY_BITS}
    every_row = [n for n, run in runs.items() if run.cycle is not None and run.cycle.first == 1
                 and run.cycle.period == 1 and run.cycle.updates == 2 ** n]
    if len(every_row) == len(runs):
        return ("In the table's runs every row is a mistake in every epoch, from **w** = 0: the "
                "updates of one pass add up to that same zero vector, and each epoch ends where "
                "it began.")
    return ("From **w** = 0 every row is a mistake in every epoch, so that each epoch ends "
            "where it began, for n = " + (", ".join(map(str, every_row)) or "none of them")
            + "; the table says how the other runs end.")


@PARTS.part("parity", "Parity")
def parity_section(lesson: Lesson, function: str, encoding: str) -> None:
    """Parity of 2 to 5 bits: never separable, the run cycles, one product feature fixes it."""
    st.header("Parity of more bits")
    st.markdown(
        "XOR is the 2-bit parity function, which the lecture notes name among what a perceptron "
        "cannot learn. The n-bit parity is true when an odd number of its n inputs are true. "
        "No hyperplane separates it for any n ≥ 2, for the same reason as XOR: summed over "
        "all 2ⁿ rows, yᵢ(**x**ᵢ, 1) is the zero vector, so the yᵢaᵢ of any (**w**, b) add up "
        "to 0 and cannot all be positive. " + parity_run_sentence(encoding))
    st.latex(r"\sum_{i=1}^{2^n} y_i \begin{pmatrix}\mathbf{x}_i\\ 1\end{pmatrix} = \mathbf{0}"
             r"\quad\Longrightarrow\quad \sum_i y_i a_i = 0 \text{ for every } (\mathbf{w}, b)")
    st.dataframe(parity_frame(encoding), hide_index=True, key=f"{PAGE}.parity")
    if encoding == "01":
        note = ("With 0/1 inputs the product x₁⋯xₙ is the AND of the inputs: it rescues XOR "
                "(n = 2) but no longer parity from n = 3, and the run on the lifted rows "
                "cycles. The product of the ±1 forms, ∏(2xᵢ − 1), is ±1 by parity alone, so "
                "one weight on it separates every n.")
    else:
        note = ("With −1/+1 inputs the product x₁⋯xₙ is (−1) to the number of false inputs, "
                "so parity is ±x₁⋯xₙ: one weight on the new feature separates it for every n.")
    st.caption("Best any hyperplane: 2ⁿ⁻¹ + C(n − 1, ⌊(n − 1)/2⌋) rows, checked by an exact "
               "search. Separable: a linear programme. The runs are exact (cyclic, η = 1, "
               "from w = 0). " + note)
