"""The settings registry: each setting declared once, and widgets, defaults and links agree."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessons.boolean import parts as lesson_boolean
from lessons.margin import parts as lesson_margin
from lessons.nonseparable import parts as lesson_nonseparable
from lessons.svm import parts as lesson_svm
from lessons.variants import parts as lesson_variants
from tests.apptest import open_app
from ui.settings import LECTURE, SHARED, TRAINING, Setting

# each lesson's own settings, with its parts' picker where it has one (as its Lesson holds them)
PAGE_SETTINGS = {
    parts.PAGE: (*parts.PARTS.settings(parts.PAGE), *parts.SETTINGS)
    for parts in (lesson_margin, lesson_boolean, lesson_nonseparable, lesson_svm, lesson_variants)
}
EVERY = [*SHARED, *(s for settings in PAGE_SETTINGS.values() for s in settings)]


@pytest.mark.parametrize("page", PAGE_SETTINGS)
def test_no_two_settings_of_a_page_share_a_key_or_a_link_parameter(page):
    # the Boolean lesson has no data or training sidebar (its link's w1 is its own weight)
    shared = [LECTURE] if page == "boolean" else SHARED
    settings = [*shared, *PAGE_SETTINGS[page]]
    params = [s.param for s in settings if s.param is not None]
    assert len(params) == len(set(params))
    assert len({s.key for s in settings}) == len(settings)
    assert not {"t", "step", "data"} & set(params)  # the step and the data set's slug


@pytest.mark.parametrize("setting", [s for s in EVERY if s.default is not None],
                         ids=lambda s: s.key)
def test_a_default_is_a_value_its_own_link_accepts(setting):
    assert setting.parse(setting.format(setting.default)) == setting.default
    if setting.options:
        assert setting.default in setting.options
    elif setting.kind in ("int", "float"):
        assert setting.low <= setting.default <= setting.high


def values_of(setting: Setting):
    """Every value a widget of this setting can hold."""
    if setting.kind == "bool":
        return st.booleans()
    if setting.options:
        return st.sampled_from(setting.options)
    if setting.kind == "int":
        return st.integers(int(setting.low), int(setting.high))
    grid = setting.step if setting.widget == "slider" else None
    if grid:  # a slider holds points of its grid
        count = round((setting.high - setting.low) / grid)
        return st.integers(0, count).map(lambda k: round(setting.low + k * grid, 10))
    return st.floats(setting.low, setting.high, allow_nan=False)


@given(st.data())
def test_any_value_a_widget_holds_survives_its_link(data):
    setting = data.draw(st.sampled_from(EVERY), label="setting")
    value = data.draw(values_of(setting), label="value")
    back = setting.parse(setting.format(value))
    assert back == value or math.isclose(back, value, rel_tol=1e-11, abs_tol=1e-9)


@given(st.text(max_size=20))
def test_any_text_either_parses_to_a_widget_value_or_says_what_is_expected(text):
    for setting in EVERY:
        try:
            value = setting.parse(text)
        except (ValueError, OverflowError) as error:
            assert str(error).startswith("expected")
            continue
        if setting.options:
            assert value in setting.options
        elif setting.kind in ("int", "float"):
            assert setting.low <= value <= setting.high


def test_a_declaration_that_cannot_work_is_refused():
    with pytest.raises(ValueError, match="kind must be one of"):
        Setting("x.y", "y", "complex", 0, "Y")
    with pytest.raises(ValueError, match="a choice needs options"):
        Setting("x.y", "y", "choice", "a", "Y", widget="select")
    with pytest.raises(ValueError, match="a number needs low and high"):
        Setting("x.y", "y", "float", 0.0, "Y")


def widget_values(at) -> dict:
    """Every keyed widget's value on the page."""
    kinds = ("number_input", "slider", "select_slider", "selectbox", "radio", "toggle",
             "segmented_control")
    return {w.key: w.value for kind in kinds for w in at.get(kind) if w.key}


@pytest.mark.parametrize("page", ["step_through", *PAGE_SETTINGS])
def test_every_widget_opens_at_its_declared_default(page):
    at = open_app(page)
    shown = widget_values(at)
    declared = [s for s in [*SHARED, *PAGE_SETTINGS.get(page, ())] if s.default is not None]
    drawn = [s for s in declared if s.key in shown]
    assert drawn, "the page drew none of its settings"
    for setting in drawn:
        assert shown[setting.key] == setting.default, setting.key
    # and the sidebar draws every training setting the run uses (typed weights only on demand)
    if page != "boolean":
        assert {s.key for s in TRAINING if s.arg} <= set(shown)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_cleaning_a_float_keeps_twelve_significant_digits(value):
    from ui.settings import clean
    assert clean(value) == float(f"{value:.12g}")
    assert clean(clean(value)) == clean(value)
    assert clean(0.1 + 0.2) == 0.3 and clean(0.7 * 3) == 2.1
