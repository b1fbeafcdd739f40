"""Students' own files as they make them: word labels as meant, the class +1 they pick, and
pickers that follow the file."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets.loader import load_csv, read_table
from tests.apptest import assert_clean, by_key, open_app, shown, upload
from tests.test_share import query, share_links
from ui.url_state import decode_points

# Saved from a spreadsheet as students save it: semicolons, decimal commas, a header, words.
YES_NO = (b"Hours studied;Hours slept;Passed\n"
          b"1,5;7;yes\n4;6,5;Yes\n0,5;8;no\n3;5;No \n5;7,5;Yes\n")


def reference_classes(content: bytes) -> dict[str, int]:
    """The classes as pandas reads the file: labels trimmed and case-folded, each named as
    most of its rows spell it; rows without a label dropped."""
    frame = pd.read_csv(io.BytesIO(content), sep=";", decimal=",", dtype={2: str},
                        keep_default_na=False)
    labels = frame.iloc[:, 2].str.strip()
    labels = labels[labels != ""]
    named = {}
    for _fold, group in labels.groupby(labels.str.casefold(), sort=False):
        counts = group.value_counts(sort=False)
        named[counts.idxmax()] = len(group)
    return named


def test_a_class_written_in_two_cases_is_one_class_named_as_most_rows_write_it():
    data = load_csv(YES_NO)
    assert len(data) == 5
    assert dict(zip(data.classes, (int(np.sum(data.y == -1)), int(np.sum(data.y == 1))),
                    strict=True)) == reference_classes(YES_NO)
    assert set(data.classes) == {"Yes", "no"}
    # the rule of the smaller label: "Yes" < "no" in Python's order, so "Yes" is -1
    assert data.classes == ("Yes", "no")
    assert read_table(YES_NO).notes() == ("'Yes' and 'yes' read as one class",
                                          "'no' and 'No' read as one class")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["yes", "Yes", "YES", " yes", "no", "No ", "NO", "nO", ""]),
                min_size=2, max_size=30))
def test_word_labels_read_as_pandas_groups_them(labels):
    content = ("a;b;c\n" + "".join(f"{i};{i % 3};{label}\n" for i, label in
                                    enumerate(labels))).encode()
    expected = reference_classes(content)
    if len(expected) != 2:
        with pytest.raises(ValueError, match=r"one class|no labels"):
            load_csv(content)
        return
    data = load_csv(content)
    got = {data.classes[0]: int(np.sum(data.y == -1)), data.classes[1]: int(np.sum(data.y == 1))}
    assert got == expected
    assert len(data) == sum(1 for label in labels if label.strip())


def test_rows_without_a_label_are_left_out_and_named():
    content = b"x;y;passed\n1;2;yes\n3;4;\n5;6;no\n;;\n7;8;  \n9;10;no\n"
    data = load_csv(content)
    assert data.X.tolist() == [[1, 2], [5, 6], [9, 10]]
    assert read_table(content).notes() == (
        "rows 3 and 6 of column 'passed' have no label and are left out",)
    # a row left out is not read, whatever its coordinates hold
    assert len(load_csv(b"x,y,c\n1,2,a\nabc,,\n3,4,b\n")) == 2


def test_numeric_labels_keep_their_reading_and_say_nothing():
    table = read_table(b"x,y,c\n0,0,1\n1,1,+1\n2,2,-1\n3,3,1.0\n")
    assert table.classes() == ("1", "-1")
    assert table.notes() == ()


def test_the_student_picks_class_plus_one():
    content = b"x,y,c\n0,0,ja\n1,1,nein\n2,2,ja\n"
    default = load_csv(content)
    assert default.classes == ("ja", "nein")
    chosen = load_csv(content, positive="ja")
    assert chosen.classes == ("nein", "ja")
    np.testing.assert_array_equal(chosen.y, -default.y)
    np.testing.assert_array_equal(chosen.y, [1, -1, 1])


def sidebar_text(at) -> str:
    return " ".join(shown(c.value) for c in at.sidebar.caption)


def test_the_page_says_once_how_the_labels_were_read_and_the_plus_one_choice_travels():
    at = open_app()
    upload(at, "exam.csv", YES_NO)
    assert_clean(at)
    said = sidebar_text(at)
    assert said.count("'Yes' and 'yes' read as one class") == 1
    assert "5 points · classes: −1 = Yes, +1 = no" in said
    picker = by_key(at.radio, f"data.positive.{at.session_state['data.user_version']}")
    assert picker.value == "no"
    picker.set_value("Yes").run()
    assert_clean(at)
    data = at.session_state["data.user"]
    assert data.classes == ("no", "Yes")
    assert "classes: −1 = no, +1 = Yes" in sidebar_text(at)
    assert "'Yes' and 'yes' read as one class" in sidebar_text(at)
    link = query(share_links(at)[0])
    back = decode_points(link["pts"], link["cls"])
    assert back.classes == ("no", "Yes")
    np.testing.assert_array_equal(back.y, [1, 1, -1, -1, 1])


HOURS = (b"Hours studied,Hours slept,Age,Passed\n1,7,20,a\n2,6,21,b\n3,5,22,c\n"
         b"4,8,19,a\n")
XYZ = b"x,y,z,passed\n1,7,20,u\n2,6,21,v\n3,5,22,w\n4,8,19,u\n"


def picker(at, key: str):
    return by_key(at.selectbox, f"file.{key}")


def test_a_new_file_tells_the_page_its_own_columns_in_every_picker():
    at = open_app()
    upload(at, "hours.csv", HOURS)
    picker(at, "x1").set_value(2).run()  # Age
    assert at.session_state["data.user"].X[:, 0].tolist() == [20, 21, 19]  # classes a and b
    upload(at, "xyz.csv", XYZ)
    assert_clean(at)
    assert at.session_state["data.user"].X[:, 0].tolist() == [1, 2, 4]
    # Each picker keeps its key from file to file, so the page keeps showing what it showed
    # unless the server sends the new value: it must, for every picker.
    for key, value in (("x1", "x"), ("x2", "y"), ("label", "passed"), ("first.3", "u"),
                       ("second.3", "v")):
        proto = picker(at, key).proto
        assert proto.set_value, key
        assert proto.raw_value == value, key


def test_a_column_of_the_same_name_keeps_its_choice():
    at = open_app()
    upload(at, "hours.csv", HOURS)
    picker(at, "x2").set_value(2).run()  # Age
    upload(at, "more.csv", b"Age,Hours studied,Passed,Room\n20,1,a,1\n21,2,b,2\n22,3,c,3\n")
    assert_clean(at)
    data = at.session_state["data.user"]
    # x1 "Hours studied" and x2 "Age" are here too, in other places
    assert data.X.tolist() == [[1, 20], [2, 21]]
    assert picker(at, "x1").proto.raw_value == "Hours studied"
    assert picker(at, "x2").proto.raw_value == "Age"


def axis_titles_of(figure: dict) -> set[str]:
    layout = figure["layout"]
    return {layout[name]["title"]["text"] for name in layout
            if name.startswith(("xaxis", "yaxis")) and "title" in layout[name]}


def test_the_headers_names_title_the_axes_and_stand_in_the_maths_on_every_lesson():
    from tests.apptest import charts, steppers, switch
    from tests.reference.wire import unpack

    at = open_app()
    upload(at, "exam.csv", YES_NO.replace(b"Hours slept", b"<b>slept</b> [a](x)"))
    assert_clean(at)
    assert at.session_state["data.user"].columns == ("Hours studied", "<b>slept</b> [a](x)")
    named = {"x₁ (Hours studied)", "x₂ (&lt;b&gt;slept&lt;/b&gt; [a](x))"}
    header, _ = unpack(steppers(at)[0].proto.bytes)
    assert header["features"] == ["Hours studied", "<b>slept</b> [a](x)"]
    assert axis_titles_of(header["figure"]) == named
    for page in ("margin", "svm", "variants"):
        switch(at, page).run()
        assert_clean(at)
        for figure in charts(at):  # no plane of the data is left titled x₁ or x₂ alone
            assert not axis_titles_of(figure) & {"x₁", "x₂"}, page
        for node in steppers(at):
            header, _ = unpack(node.proto.bytes)
            if "figure" in header:
                assert axis_titles_of(header["figure"]) == named, page


def test_a_file_without_names_keeps_x1_and_x2():
    assert load_csv(b"1,2,a\n3,4,b\n").columns is None
    assert load_csv(b"x,y,label\n1,2,a\n3,4,b\n").columns is None
    assert load_csv(b"Hours,Sleep,label\n1,2,a\n3,4,b\n").columns == ("Hours", "Sleep")


def test_the_headers_names_travel_in_the_share_link_as_text():
    from tests.test_lesson import open_link

    at = open_app()
    upload(at, "exam.csv", YES_NO.replace(b"Hours slept", b"[slept](https://e.example) & co"))
    link = query(share_links(at)[0])
    back = decode_points(link["pts"], link["cls"], link["cols"])
    assert back.columns == ("Hours studied", "[slept](https://e.example) & co")
    opened = open_link(link, "step_through")
    assert_clean(opened)
    assert opened.session_state["data.user"].columns == back.columns
    # names that cannot be read leave the points their own, and the link says so
    broken = open_link({**link, "cols": "only-one"}, "step_through")
    assert_clean(broken)
    assert broken.session_state["data.user"].columns is None
    assert "cols (expected two column names)" in " ".join(shown(t.value) for t in broken.toast)
