"""Lesson 3: Boolean functions as perceptrons, and why no line computes XOR."""

import contextlib
import math

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from core.boolean import (
    ENCODINGS,
    FUNCTIONS,
    hand_weights,
    lift,
    rows_right,
    train,
    truth_table,
)
from core.lines import best_line, labelings
from ui.charts import lecture_toggle, show
from ui.state import keep_alive, keep_shared_settings
from ui.url_state import Field, write
from viz.boolean import (
    curve_equation,
    curve_figure,
    lifted_figure,
    plain_equation,
    truth_figure,
    truth_frame,
    worked_lines,
)

PAGE = "boolean"
ENCODING_LABELS = {"01": "0 / 1 (slides)", "pm1": "−1 / +1 (book)"}
WEIGHTS = ("w1", "w2", "b")
LIMIT = 40.0  # range of the weight sliders: wide enough for the slides' 20, 20, -30


def _choice(options):
    """A parser for a link value that must be one of ``options``."""
    def parse(text: str) -> str:
        if text not in options:
            raise ValueError(f"expected one of {', '.join(options)}")
        return text
    return parse


def _weight(text: str) -> float:
    """A weight from a link: a number within the sliders' range."""
    value = float(text)
    if not (math.isfinite(value) and -LIMIT <= value <= LIMIT):
        raise ValueError(f"expected a number from {-LIMIT:g} to {LIMIT:g}")
    return value


# The weights have no fixed default (each function has its own), so they are always linked.
URL_FIELDS = (Field("fn", f"{PAGE}.function", _choice(FUNCTIONS), "AND"),
              Field("enc", f"{PAGE}.encoding", _choice(ENCODINGS), "01"),
              *(Field(name, f"{PAGE}.{name}", _weight, None) for name in WEIGHTS))


def restore_from_link() -> None:
    """Take the function, encoding and weights from the link, once per session."""
    if st.session_state.get(f"{PAGE}.url_read"):
        return
    st.session_state[f"{PAGE}.url_read"] = True
    for field in URL_FIELDS:
        with contextlib.suppress(KeyError, ValueError):  # a bad value keeps the default
            st.session_state[field.key] = field.parse(st.query_params[field.param])


def set_weights(w, b) -> None:
    """Put (w1, w2, b) in both the sliders and the number boxes."""
    for name, value in zip(WEIGHTS, (*w, b), strict=True):
        value = float(np.clip(value, -LIMIT, LIMIT))
        st.session_state[f"{PAGE}.{name}"] = value
        st.session_state[f"{PAGE}.{name}_box"] = value


def load_hand_weights() -> None:
    """The hand-made weights of the chosen function and encoding."""
    hand = hand_weights(st.session_state[f"{PAGE}.function"], st.session_state[f"{PAGE}.encoding"])
    set_weights(hand.w, hand.b)


def copy(source: str, target: str) -> None:
    """Keep a slider and its number box equal."""
    st.session_state[target] = st.session_state[source]


@st.cache_data(show_spinner=False)
def trainings(encoding: str) -> pd.DataFrame:
    """The perceptron (cyclic, eta 1, zeros) on every function of the encoding."""
    rows = []
    for function in FUNCTIONS:
        table = truth_table(function, encoding)
        run = train(table.X, table.y)
        rows.append({"function": function, "mistakes": run.mistakes, "w₁": run.w[0],
                     "w₂": run.w[1], "b": run.b, "how the run ends": run.ending})
    return pd.DataFrame(rows).set_index("function")


keep_shared_settings()
restore_from_link()
keep_alive({f"{PAGE}.function": "AND", f"{PAGE}.encoding": "01"})
preset = hand_weights(st.session_state[f"{PAGE}.function"], st.session_state[f"{PAGE}.encoding"])
keep_alive(dict(zip((f"{PAGE}.{name}" for name in WEIGHTS), (*preset.w, preset.b), strict=True)))
keep_alive({f"{PAGE}.{name}_box": st.session_state[f"{PAGE}.{name}"] for name in WEIGHTS})
with st.sidebar:
    lecture_toggle()
    st.caption("This lesson uses the truth tables on the page; the data picker comes back "
               "on the other lessons, with your settings kept.")

st.title("Boolean functions and XOR")
st.caption("A perceptron computes a Boolean function when the sign of a = w₁x₁ + w₂x₂ + b is "
           "the output on every row of the truth table (a = 0 counts as wrong).")
top = st.columns([0.6, 0.4])
function = top[0].segmented_control("Function", FUNCTIONS, key=f"{PAGE}.function",
                                    on_change=load_hand_weights)
encoding = top[1].radio("Truth values", list(ENCODING_LABELS), key=f"{PAGE}.encoding",
                        format_func=ENCODING_LABELS.get, horizontal=True,
                        on_change=load_hand_weights)
if function is None:  # a second click on the selected segment clears it
    st.session_state[f"{PAGE}.function"] = function = "AND"
write(URL_FIELDS)
table = truth_table(function, encoding)
w = np.array([st.session_state[f"{PAGE}.w1"], st.session_state[f"{PAGE}.w2"]])
b = float(st.session_state[f"{PAGE}.b"])
if function == "NOT":
    st.info("NOT has one input. To keep it in the same plane it gets a second input x₂ that "
            "it ignores: each value of x₁ appears twice, and a line computing NOT need not "
            "depend on x₂ (the book's −x₁ has w₂ = 0).", icon=":material/info:")

left, right = st.columns([0.55, 0.45])
with right:
    st.markdown("**Weights** (slider or box; they stay in step)")
    for name, label in zip(WEIGHTS, ("w₁", "w₂", "b"), strict=True):
        c1, c2 = st.columns([0.68, 0.32])
        c1.slider(label, -LIMIT, LIMIT, step=0.5, format="%g", key=f"{PAGE}.{name}",
                  on_change=copy, args=(f"{PAGE}.{name}", f"{PAGE}.{name}_box"))
        c2.number_input(label, -LIMIT, LIMIT, step=0.5, format="%g", key=f"{PAGE}.{name}_box",
                        on_change=copy, args=(f"{PAGE}.{name}_box", f"{PAGE}.{name}"),
                        label_visibility="hidden")
    hand = hand_weights(function, encoding)
    st.button("Hand-made weights", icon=":material/back_hand:", key=f"{PAGE}.hand",
              on_click=load_hand_weights, help=f"From {hand.source}")
    st.caption(f"Hand-made weights for {function}: a = {plain_equation(hand.w, hand.b)}; "
               f"from {hand.source}.")
    right_rows = rows_right(table, w, b)
    st.metric("Rows right", f"{int(right_rows.sum())} / 4")
    st.dataframe(truth_frame(table, w, b), hide_index=True, key=f"{PAGE}.table")
with left:
    show(truth_figure(table, w, b, title=f"{function}, {ENCODING_LABELS[encoding]}"),
         key=f"{PAGE}.plane", alt=f"The four rows of {function} in the plane, the line of the "
         "current weights, and which rows it gets right")
st.markdown("**The activation on each row**")
for line in worked_lines(table, w, b):
    st.latex(line)

st.subheader("Train the perceptron on each function")
st.markdown("The seeds' algorithm: rows in order (cyclic), η = 1, starting from "
            "**w** = 0, b = 0, until a whole pass makes no mistake.")
runs = trainings(encoding)
st.dataframe(runs, key=f"{PAGE}.runs")
chosen = runs.loc[function]
if function == "XOR":
    st.warning(f"XOR: {chosen['how the run ends']}. It never converges.",
               icon=":material/autorenew:")
else:
    st.success(f"{function} converges after {chosen['mistakes']} mistakes: a = "
               f"{plain_equation((chosen['w₁'], chosen['w₂']), chosen['b'])}.",
               icon=":material/check_circle:")
st.button("Use the trained weights", icon=":material/model_training:", key=f"{PAGE}.trained",
          on_click=set_weights, args=((chosen["w₁"], chosen["w₂"]), chosen["b"]),
          disabled=function == "XOR")

st.subheader("Why no line computes XOR")
xor = truth_table("XOR", encoding)
best = best_line(xor.X, xor.y)
ways = labelings(xor.X)
F, T = ("0", "1") if encoding == "01" else ("-1", "+1")
st.markdown("Minsky and Papert (1969): no perceptron lin(**x**) = **w**·**x** + b satisfies")
st.latex(rf"\mathrm{{lin}}({F},{F}) < 0,\quad \mathrm{{lin}}({F},{T}) > 0,\quad "
         rf"\mathrm{{lin}}({T},{F}) > 0,\quad \mathrm{{lin}}({T},{T}) < 0.")
middle = "w_1 + w_2 + 2b" if encoding == "01" else "2b"
st.markdown(f"Add the first and the last, then the middle two: the two sums are equal "
            f"(both are ${middle}$), yet the first is negative and the second positive.")
st.latex(rf"\mathrm{{lin}}({F},{F}) + \mathrm{{lin}}({T},{T}) = {middle} = "
         rf"\mathrm{{lin}}({F},{T}) + \mathrm{{lin}}({T},{F})")
cols = st.columns([0.45, 0.55])
cols[0].metric("Best any line does on XOR", f"{best.correct} / {best.total}")
cols[0].markdown(
    f"An exact search over every line: lines can split these four corners in "
    f"{len(ways)} of the 2⁴ = 16 possible ways, and XOR and its negation are the two "
    f"they miss. The best line gets {best.correct} rows right, never 4.")
cols[0].markdown(
    "So the perceptron cannot stop on XOR: every pass finds a mistake. From **w** = 0 it "
    "makes the same four updates every epoch, which cancel, and the weights come back to 0: "
    "the run cycles forever.")
try:
    cols[0].page_link("pages/nonseparable.py", label="More in Non-separable data",
                      icon=":material/autorenew:")
except StreamlitPageNotFoundError:
    cols[0].markdown("More in the lesson **Non-separable data**.")
with cols[1]:
    show(truth_figure(xor, best.w, best.b, height=400, line_name="a best line"),
         key=f"{PAGE}.best", alt="XOR with the best line found: three rows right, one wrong")

st.subheader("What fixes it: a new feature x₁x₂")
lifted = train(lift(xor.X), xor.y)
st.markdown(
    f"Give each row a third coordinate x₁·x₂. In 3-D the four points are separable by a "
    f"plane, and the same perceptron (cyclic, η = 1, zeros) converges after "
    f"{lifted.mistakes} mistakes:")
st.latex(r"a = " + curve_equation(lifted.w, lifted.b).removesuffix(" = 0"))
st.markdown("Back in the plane that plane is a curve, not a line: a hyperbola (a pair of "
            "lines when it degenerates), and it gets every row of XOR right.")
c3d, c2d = st.columns(2)
with c3d:
    show(lifted_figure(xor, lifted.w, lifted.b), key=f"{PAGE}.lifted",
         alt="XOR lifted to three dimensions with the separating plane")
with c2d:
    show(curve_figure(xor, lifted.w, lifted.b), key=f"{PAGE}.curve",
         alt="The separating plane seen in the input plane: a hyperbola around XOR")
