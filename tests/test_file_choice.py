"""Uploading a wider file or more classes: the sidebar's choice of columns and classes."""

from __future__ import annotations

from datasets.loader import REST
from tests.apptest import assert_clean, by_key, open_app, shown, upload
from tests.test_loader import IRIS_LIKE


def sidebar_caption(at) -> str:
    return next(c.value for c in at.sidebar.caption if "points ·" in c.value)


def test_a_wide_file_opens_with_the_defaults_and_the_choice_changes_it():
    at = open_app()
    upload(at, "iris.csv", IRIS_LIKE)
    assert_clean(at)
    assert by_key(at.selectbox, "data.choice").value == "Your data"
    assert sidebar_caption(at).startswith("5 points · classes: −1 = setosa, +1 = versicolor")
    assert by_key(at.selectbox, "file.x1").value == 0
    assert by_key(at.selectbox, "file.label").value == 4

    by_key(at.selectbox, "file.second.4").set_value(REST).run()
    assert_clean(at)
    assert sidebar_caption(at).startswith("7 points · classes: −1 = not setosa, +1 = setosa")

    by_key(at.selectbox, "file.x2").set_value(3).run()
    assert_clean(at)
    data = at.session_state["data.user"]
    assert data.name == "iris (sepal_length, petal_width; setosa vs the rest)"
    assert data.X[:, 1].tolist() == [0.2, 1.4, 2.5, 0.2, 1.5, 1.9, 0.2]
    assert not at.error


def test_the_same_column_twice_keeps_the_data_with_a_message():
    at = open_app()
    upload(at, "iris.csv", IRIS_LIKE)
    by_key(at.selectbox, "file.x2").set_value(0).run()
    assert_clean(at)
    assert "x1, x2 and the label must be three different columns" in shown(at.error[0].value)
    assert sidebar_caption(at).startswith("5 points")


def test_a_plain_file_shows_no_choice():
    at = open_app()
    upload(at, "plain.csv", b"x,y,out\n0,0,a\n1,1,b\n")
    assert_clean(at)
    assert not [s for s in at.selectbox if str(s.key).startswith("file.")]
    assert sidebar_caption(at).startswith("2 points · classes: −1 = a, +1 = b")


def test_a_hostile_upload_is_refused_at_its_first_row_and_the_data_kept():
    at = open_app()
    before = sidebar_caption(at)
    upload(at, "wide.csv", (b"0," * 999 + b"0\n") * 1_000)
    assert_clean(at)
    assert "wide.csv: row 1 has 1000 columns; the limit is 100" in shown(at.error[0].value)
    assert sidebar_caption(at) == before
    assert not [s for s in at.selectbox if str(s.key).startswith("file.")]
