"""The drawing page through AppTest: start from a set, clear, undo, and use it in a lesson."""

from __future__ import annotations

from tests.apptest import assert_clean, by_key, click, components, open_app, switch, trigger

PAGE = "your_data"


def count_caption(at) -> str:
    return next(c.value for c in at.main.caption if " of class " in c.value)


def test_starts_empty_with_the_tools():
    at = open_app(PAGE)
    assert count_caption(at).startswith("0 points")
    assert by_key(at.button, f"{PAGE}.undo").disabled
    assert by_key(at.button, f"{PAGE}.clear").disabled
    tool = by_key(at.segmented_control, f"{PAGE}.tool")
    assert tool.value == "add +1" and list(tool.options) == ["● Add −1", "■ Add +1", "✕ Erase"]


def canvas_click(at, x: float, y: float):
    """A click on the canvas's point nearest (x, y), as its chart sends it back (ui/chart.py)."""
    (canvas,) = components(at, "chart")
    return trigger(at, canvas, "click", {"x": x, "y": y})


def test_a_click_on_the_canvas_adds_a_point_of_the_tool_and_erase_takes_the_nearest():
    at = open_app(PAGE)
    canvas_click(at, 1.0, 2.0)
    assert count_caption(at) == "1 point · 0 of class −1, 1 of class +1"
    by_key(at.segmented_control, f"{PAGE}.tool").set_value("add -1").run()
    canvas_click(at, -1.5, 0.5)
    assert count_caption(at) == "2 points · 1 of class −1, 1 of class +1"
    by_key(at.segmented_control, f"{PAGE}.tool").set_value("erase").run()
    canvas_click(at, 0.9, 1.8)  # nearest to (1, 2): the +1 goes
    assert count_caption(at) == "1 point · 1 of class −1, 0 of class +1"
    at.run()  # a click is one event: the next run adds nothing
    assert count_caption(at).startswith("1 point ·")


def test_start_from_the_picked_set_then_clear_and_undo():
    at = open_app(PAGE)
    by_key(at.selectbox, "data.choice").set_value("XOR (±1)").run()
    click(at, f"{PAGE}.copy")
    assert count_caption(at) == "4 points · 2 of class −1, 2 of class +1"
    assert at.get("download_button")
    click(at, f"{PAGE}.clear")
    assert count_caption(at).startswith("0 points")
    click(at, f"{PAGE}.undo")
    assert count_caption(at).startswith("4 points")


def test_your_points_become_your_data_in_the_lessons():
    at = open_app(PAGE)
    by_key(at.selectbox, "data.choice").set_value("AND (0/1)").run()
    click(at, f"{PAGE}.copy")
    switch(at, "step_through").run()
    assert_clean(at)
    picker = by_key(at.selectbox, "data.choice")
    assert "Your data" in picker.options
    picker.set_value("Your data").run()
    assert_clean(at)
    assert "4 points" in at.sidebar.caption[0].value


def test_a_detour_through_pages_without_the_settings_keeps_them():
    at = open_app()
    by_key(at.selectbox, "train.order").set_value("shuffle_each_epoch").run()
    by_key(at.number_input, "train.eta").set_value(0.25).run()
    by_key(at.selectbox, "data.choice").set_value("Separable (generator)").run()
    by_key(at.slider, "data.n").set_value(77).run()
    for page in ("your_data", "boolean", "step_through"):
        switch(at, page).run()
        assert_clean(at)
    assert by_key(at.selectbox, "train.order").value == "shuffle_each_epoch"
    assert by_key(at.number_input, "train.eta").value == 0.25
    assert by_key(at.slider, "data.n").value == 77
