"""Links: a view survives the round trip, and tampered links never break a page."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlencode

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from datasets import Dataset
from datasets.builtin import BUILTIN, FORMER_NAMES, GENERATORS
from tests.apptest import ROOT, assert_clean, by_key, stepper_run, switch
from tests.names import class_pair
from ui.url_state import DATA_SLUGS, decode_points, encode_names, encode_points, slug

PAGES = ["step_through", "your_data"]


def open_link(params: dict, page: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(params)
    at.run()
    if page:
        switch(at, page)
        at.run()
    return at


def test_a_link_restores_data_settings_and_step():
    at = open_link({"data": "separable-generator", "n": "30", "margin": "0.3", "dseed": "5",
                    "order": "shuffle_each_epoch", "eta": "0.5", "bias": "0", "seed": "9",
                    "epochs": "20", "step": "7"})
    assert_clean(at)
    assert by_key(at.selectbox, "data.choice").value == "Separable (generator)"
    assert by_key(at.slider, "data.n").value == 30
    assert by_key(at.selectbox, "train.order").value == "shuffle_each_epoch"
    assert by_key(at.number_input, "train.eta").value == 0.5
    assert by_key(at.toggle, "train.bias").value is False
    assert stepper_run(at, "step_through")[0]["start"] == 7
    assert not at.toast  # nothing was ignored
    # and the page writes the same view back into the URL
    for key, value in {"data": "separable-generator", "n": "30", "order": "shuffle_each_epoch",
                       "eta": "0.5", "bias": "0", "step": "7"}.items():
        assert at.query_params[key] == value


def test_points_in_a_link_become_your_data():
    at = open_link({"pts": "1,1,+;-2,-1.5,-;0.5,3,+", "cls": "no,yes"})
    assert_clean(at)
    assert by_key(at.selectbox, "data.choice").value == "Your data"
    assert "3 points · classes: −1 = no, +1 = yes" in at.sidebar.caption[0].value


@given(st.lists(st.tuples(st.integers(-40, 40), st.integers(-40, 40), st.booleans()),
                min_size=1, max_size=60))
def test_points_encode_and_decode_exactly(rows):
    X = np.array([(a / 2, b / 2) for a, b, _ in rows])
    y = np.array([1.0 if c else -1.0 for *_, c in rows])
    data = decode_points(encode_points(Dataset("d", X, y)), None)
    np.testing.assert_array_equal(data.X, X)
    np.testing.assert_array_equal(data.y, y)


def test_every_data_set_has_a_distinct_slug():
    names = [*BUILTIN, *GENERATORS]
    assert len({slug(name) for name in names}) == len(names)
    assert set(DATA_SLUGS.values()) == set(names)


def test_links_made_before_a_rename_still_open_the_data_set():
    for old, new in FORMER_NAMES.items():
        assert new in BUILTIN
        assert slug(old) in DATA_SLUGS
    at = open_link({"data": "seeds-example-4-points"})
    assert_clean(at)
    assert not at.toast
    assert by_key(at.selectbox, "data.choice").value == "Lecture notes' example: 4 points"


@pytest.mark.parametrize("bad", [{"eta": "abc"}, {"eta": "-1"}, {"epochs": "1e9"},
                                 {"order": "sideways"}, {"data": "nope"}, {"t": "-3"},
                                 {"step": "x"},
                                 {"pts": "1,1"}, {"bias": "maybe"}, {"n": "99999999999999"}])
def test_a_bad_value_falls_back_with_a_notice(bad):
    at = open_link(bad)
    assert_clean(at)
    assert at.toast and "not used" in at.toast[0].value
    assert next(iter(bad)) in at.toast[0].value


tampered_value = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["nan", "inf", "-inf", "1e309", "0", "-0", "1e-320", "999999999999",
                     "1,2,+;", ";;;", "x,y,+", "0x10", " 3 ", "True", ""]),
    st.integers(-10**12, 10**12).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
params = st.dictionaries(
    st.sampled_from(["data", "n", "margin", "spread", "dseed", "order", "init", "w1", "w2",
                     "b", "eta", "bias", "seed", "epochs", "t", "step", "pts", "cls", "lecture",
                     "unknown"]),
    tampered_value, max_size=6,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params, st.sampled_from(PAGES))
def test_tampered_links_never_break_a_page(query, page):
    at = open_link(query, page)
    assert_clean(at)
    assert not at.error or all("previous data" not in e.value for e in at.error)


@pytest.mark.parametrize(("page", "bad"), [("margin", {"ball": "maybe"}),
                                           ("svm", {"lam": "abc"}),
                                           ("variants", {"degree": "99"}),
                                           ("boolean", {"fn": "XNOR"})])
def test_a_bad_page_value_falls_back_with_the_same_notice(page, bad):
    at = open_link(bad, page)
    assert_clean(at)
    assert at.toast and "not used" in at.toast[0].value
    assert next(iter(bad)) in at.toast[0].value


@settings(max_examples=300, deadline=None)
@given(class_pair, st.lists(st.tuples(st.integers(-40, 40), st.integers(-40, 40)), min_size=2,
                            max_size=60))
def test_any_class_names_survive_a_share_link(classes, points):
    X = np.array(points, dtype=float) / 2
    y = np.where(np.arange(len(points)) % 2 == 0, -1.0, 1.0)
    data = Dataset("d", X, y, classes)
    for quoting in (urlencode, lambda q: "&".join(f"{k}={quote(v, safe=',;-.')}"
                                                   for k, v in q.items())):
        query = quoting({"pts": encode_points(data), "cls": encode_names(data.classes)})
        back = {k: v[0] for k, v in parse_qs(query, keep_blank_values=True).items()}
        loaded = decode_points(back["pts"], back["cls"])
        assert loaded.classes == data.classes
        np.testing.assert_array_equal(loaded.X, data.X)
        np.testing.assert_array_equal(loaded.y, data.y)


def test_old_plain_class_links_still_open():
    assert decode_points("0,0,-;1,1,+", "no,yes").classes == ("no", "yes")


def test_a_plus_typed_into_a_link_reads_as_plus():
    # Streamlit reads the query with urllib's parse_qs, which turns a bare '+' into a space:
    # a link typed by hand, like the ones in the lecture's slides, must still mean class +1
    from urllib.parse import parse_qs

    typed = parse_qs("pts=0,0,-;1,1,+;2,0,-")["pts"][0]
    assert typed == "0,0,-;1,1, ;2,0,-"
    np.testing.assert_array_equal(decode_points(typed, None).y, [-1, 1, -1])
    with pytest.raises(ValueError, match="x1,x2,"):
        decode_points("0,0,-;1,1,  ", None)


@pytest.mark.parametrize("names", ["a,b,c", "a", "%FF,b", "," , "x," + "y" * 101])
def test_bad_class_names_in_a_link_are_refused(names):
    with pytest.raises(ValueError, match="expected two class names"):
        decode_points("0,0,-;1,1,+", names)


def test_control_and_bidi_characters_leave_linked_names():
    data = decode_points("0,0,-;1,1,+", encode_names(("a\u202eb", "c\x1b[31m")))
    assert data.classes == ("ab", "c[31m")
