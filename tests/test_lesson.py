"""Every page through its Lesson: lecture mode on every chart, and link state on every page."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest import (
    ROOT,
    assert_clean,
    by_key,
    charts,
    components,
    metrics,
    stepper_run,
    steppers,
    switch,
    trigger,
)
from ui.lesson import Parts

# a page and a link that shows its charts (several parts for the pages that have them)
VIEWS = [
    ("step_through", {}),
    ("margin", {"sep": "Overlaid"}),
    ("boolean", {}),
    ("nonseparable", {"data": "xor-0-1"}),
    ("svm", {"part": "Losses"}),
    ("svm", {"part": "Train side by side"}),
    ("svm", {"part": "Soft margin"}),
    ("variants", {"part": "averaged"}),
    ("variants", {"part": "kernel"}),
    ("variants", {"part": "classes"}),
    ("your_data", {"pts": "0,0,-;1,1,+"}),
]


def open_link(params: dict, page: str) -> AppTest:
    """Open a link straight to a page, as a browser does: its first run is that page's."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(params)
    switch(at, page)
    return at.run()


def font_sizes(at) -> list:
    """The font size of every figure on the page: its charts and its steppers' figures."""
    from tests.reference.wire import unpack

    figures = list(charts(at))
    for node in steppers(at):  # stepped in the browser: figures travel in the run
        header, _ = unpack(node.proto.bytes)
        figures += [header[name] for name in ("figure", "weights_figure") if name in header]
    return [spec["layout"].get("font", {}).get("size") for spec in figures]


@pytest.mark.parametrize(("page", "params"), VIEWS, ids=lambda v: str(v))
def test_lecture_mode_enlarges_every_chart_of_every_page(page, params):
    at = open_link({**params, "lecture": "1"}, page)
    assert_clean(at)
    assert by_key(at.toggle, "view.lecture").value is True
    assert font_sizes(at) and set(font_sizes(at)) == {20}
    assert at.query_params["lecture"] == "1"  # and the link keeps it
    by_key(at.toggle, "view.lecture").set_value(False).run()
    assert 20 not in font_sizes(at)
    assert "lecture" not in at.query_params


@pytest.mark.rest_later
def test_a_projectors_first_run_ends_at_its_picture_and_its_browser_asks_for_the_rest():
    at = open_link({"lecture": "1", "sep": "Overlaid"}, "margin")
    # the stepper is sent and the run ends: the panels under it, the proof, the sidebar's view
    # of the lesson come once the browser has drawn the picture and asks
    assert len(steppers(at)) == 1 and not metrics(at) and not charts(at)
    (rest,) = components(at, "rest_later")
    trigger(at, rest, "drawn", "margin")
    assert len(steppers(at)) == 1 and not components(at, "rest_later")
    assert metrics(at)["Bound R²/γ²"] == "81"  # the notes' 4 points: (R/γ)² = (3/(1/3))²
    assert charts(at)  # the proof's chart
    whole = len(at.main.children)
    at.run()  # a later run of the page (a step reported, a setting) is whole at once
    assert len(at.main.children) == whole and not components(at, "rest_later")
    # another lesson's first run ends at its picture again (its page charted: the SVM's losses)
    at.query_params.update({"part": "Losses"})
    switch(at, "svm").run()
    assert len(charts(at)) == 1 and components(at, "rest_later")
    # out of lecture mode every run is whole: a student's phone pays for one run, not two
    plain = open_link({"sep": "Overlaid"}, "margin")
    assert metrics(plain) and not components(plain, "rest_later")


def test_the_non_separable_lesson_keeps_its_view_in_the_link():
    at = open_link({"data": "iris-versicolor-vs-virginica-petal", "watch": "cycle", "3d": "1",
                    "step": "5"}, "nonseparable")
    assert_clean(at)
    assert not at.toast  # every value was used
    assert by_key(at.segmented_control, "nonseparable.watch").value == "cycle"
    assert by_key(at.toggle, "nonseparable.three_d").value is True
    assert stepper_run(at, "nonseparable")[0]["start"] == 5
    assert any(t.get("type") == "scatter3d" for spec in charts(at) for t in spec["data"])
    for key, value in {"watch": "cycle", "3d": "1", "step": "5"}.items():
        assert at.query_params[key] == value
    by_key(at.toggle, "nonseparable.three_d").set_value(False).run()
    assert "3d" not in at.query_params  # back at its default: left out


def test_a_bad_non_separable_value_falls_back_with_the_notice():
    at = open_link({"data": "xor-0-1", "watch": "sideways"}, "nonseparable")
    assert_clean(at)
    assert at.toast and "watch" in at.toast[0].value and "sideways" in at.toast[0].value
    assert at.session_state["nonseparable.watch"] == "start"


def test_a_boolean_link_does_not_touch_the_training_weights():
    at = open_link({"fn": "OR", "w1": "-2.5"}, "boolean")
    assert_clean(at)
    assert at.session_state["boolean.w1"] == -2.5
    assert "train.w1" not in at.session_state
    switch(at, "step_through").run()
    assert by_key(at.number_input, "train.eta").value == 1.0  # the sidebar as it was
    assert "w1" not in at.query_params


def test_parts_keep_the_order_of_their_entries_and_a_picker_names_them_in_the_link():
    parts = Parts(pick=True)

    @parts.part("second", "The second")
    def second(lesson): ...

    @parts.part("first")
    def first(lesson): ...

    assert parts.names == ("second", "first") and parts["first"] is first
    (picker,) = parts.settings("demo")
    assert (picker.key, picker.param, picker.default) == ("demo.part", "part", "second")
    assert picker.options == ("second", "first") and picker.show("second") == "The second"
    assert Parts().settings("demo") == ()  # every part drawn: nothing to pick
    with pytest.raises(ValueError, match="second"):
        parts.part("second")(first)


def test_the_picked_parts_keep_the_names_their_links_always_had():
    from lessons import svm, variants

    assert svm.PARTS.names == ("Losses", "Train side by side", "Soft margin", "Generalization",
                               "In scikit-learn")
    assert variants.PARTS.names == ("averaged", "kernel", "classes")


def _ends_on_each_hostile_name():
    import contextlib

    from tests.names import HOSTILE_NAMES
    from ui.lesson import PageEnds, cannot_go_on

    for name in HOSTILE_NAMES:
        with contextlib.suppress(PageEnds):
            cannot_go_on(f"This data cannot be used here: no class {name}")


def test_a_page_that_cannot_go_on_says_its_message_as_written():
    """The message quotes a check's error, which may quote the reader's data: every hostile
    name shows as its own characters, with no Markdown, link or directive made of it."""
    from tests.apptest import shown
    from tests.names import HOSTILE_NAMES
    from ui.outside import md

    at = AppTest.from_function(_ends_on_each_hostile_name).run()
    assert not at.exception
    said = [e.value for e in at.error]  # (Streamlit strips a message's ends)
    messages = [f"This data cannot be used here: no class {n}" for n in HOSTILE_NAMES]
    assert said == [md(message).strip() for message in messages]
    assert [shown(value) for value in said] == \
        [" ".join(message.splitlines()).strip() for message in messages]
