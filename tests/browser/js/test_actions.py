"""actions.js: what each control does to a stepper (a stand-in that notes what it is asked),
and the next mistake against a plain search in Python."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.browser

NEXT = """([updated, stops, k]) => pl.nextMistake(
  { columns: { updated: { values: Uint8Array.from(updated), width: 1 },
               ...(stops ? { stops: { values: Uint8Array.from(stops), width: 1 } } : {}) } },
  k, updated.length - 1)"""


def next_mistake(updated: list[int], stops: list[int] | None, k: int) -> int:
    """The reference: the first later step the lesson's clock (stops, else the updates) marks."""
    marks = stops if stops is not None else updated
    return next((j for j in range(k + 1, len(marks)) if marks[j] == 1), len(marks) - 1)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=1, max_size=30).flatmap(
    lambda updated: st.tuples(
        st.just(updated),
        st.none() | st.lists(st.integers(0, 1), min_size=len(updated), max_size=len(updated)),
        st.integers(0, len(updated) - 1))))
def test_next_mistake_is_the_first_later_marked_step_or_the_end(js, case):
    updated, stops, k = case
    assert js.evaluate(NEXT, [updated, stops, k]) == next_mistake(updated, stops, k)


# a stand-in stepper at step k of K (its run: a visit at every step but the first), noting
# what it is asked; Predict on or off, Play running or not
ACT = """([action, k, K, predictOn, playing, quizOpen]) => {
  const calls = [];
  const note = (...call) => calls.push(call.join(" "));
  const index = Int32Array.from({ length: K + 1 }, (_, j) => (j === 0 ? -1 : j - 1));
  const updated = Uint8Array.from({ length: K + 1 }, (_, j) => (j === 3 ? 1 : 0));
  const s = { k, K, run: { columns: { index: { values: index, width: 1 },
                                      updated: { values: updated, width: 1 } } },
              go: (j) => note("go", j), schedule: () => note("schedule"),
              player: { playing: playing ? {} : null, stop: () => note("stop"),
                        start: () => note("start") },
              predict: { on: predictOn, quiz: quizOpen ? {} : null,
                         ask: (run, j) => note("ask", j), close: () => note("close") } };
  pl.perform(s, action);
  return calls;
}"""


@pytest.mark.parametrize(("action", "k", "predict", "playing", "calls"), [
    ("step", 1, False, False, ["go 2", "schedule"]),
    ("step", 1, True, False, ["ask 2"]),  # Predict asks before the step is shown
    ("step", 6, True, False, ["go 7", "schedule"]),  # at the end: nothing to predict
    ("step", 1, False, True, ["stop", "go 2", "schedule"]),  # a press stops Play
    ("back", 2, False, False, ["close", "go 1", "schedule"]),
    ("next", 0, False, False, ["close", "go 3", "schedule"]),
    ("next", 3, False, False, ["close", "go 6", "schedule"]),
    ("reset", 4, False, False, ["close", "go 0", "schedule"]),
    ("play", 2, False, False, ["close", "start", "schedule"]),
    ("play", 6, False, False, ["close", "go 0", "start", "schedule"]),  # from the start again
    ("play", 2, False, True, ["close", "stop", "schedule"]),  # Pause
])
def test_each_control_asks_the_stepper_for_its_move(js, action, k, predict, playing, calls):
    assert js.evaluate(ACT, [action, k, 6, predict, playing, False]) == calls


def test_a_question_already_asked_is_not_asked_again(js):
    assert js.evaluate(ACT, ["step", 1, 6, True, False, True]) == []


def test_a_stepper_with_no_run_yet_does_nothing(js):
    assert js.evaluate("""() => { const calls = [];
      pl.perform({ run: null, go: () => calls.push("go") }, "step"); return calls; }""") == []
