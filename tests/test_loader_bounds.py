"""How much of a file the loader reads: a refused file only up to the row it refuses.

The loader counts what it reads (``datasets.dialect.Text``: the lines it hands
out and the bytes it decodes); these tests hold each hostile shape of upload
(about the 2 MB the loader accepts) to a bound on both, and check that reading
less changes no answer: the first bad row named is the one a scan of the whole
file finds first, and a good file reads as pandas reads it.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from datasets import dialect
from datasets.cells import MAX_LABEL
from datasets.dialect import BLOCK, MAX_BYTES, SNIFF_LINES
from datasets.loader import MAX_COLUMNS, MAX_ROWS, load_csv, read_table
from testkit.hostile_files import HOSTILE, TOO_MANY_ROWS, filled


@pytest.fixture
def texts(monkeypatch):
    """Every ``dialect.Text`` the loader makes while the test runs: what it read of its file."""
    made = []
    init = dialect.Text.__init__

    def counting(self, content):
        init(self, content)
        made.append(self)

    monkeypatch.setattr(dialect.Text, "__init__", counting)
    return made


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_refused_after_reading_a_bounded_prefix(name, texts):
    shape = HOSTILE[name]
    content = shape.content()
    assert len(content) <= MAX_BYTES
    with pytest.raises(ValueError, match=shape.message):
        load_csv(content)
    (text,) = texts
    assert text.lines_read <= shape.lines
    assert text.bytes_decoded <= shape.decoded


@pytest.mark.parametrize("name", ["330,000 tiny valid rows", "330,000 rows of a wide file"])
def test_the_row_limit_refuses_at_the_first_row_past_it(name, texts):
    with pytest.raises(ValueError, match=TOO_MANY_ROWS):
        read_table(HOSTILE[name].content())
    (text,) = texts
    header = 1 if "wide" in name else 0
    # the line the separator is found from, any header, the rows allowed and one more
    assert text.lines_read == 1 + header + MAX_ROWS + 1


NOTHING_AFTER = {
    "blank lines": b"\n",
    "separators": b";;\r\n",
    "spaces and tabs": b" \t\n",
}


@pytest.mark.parametrize("filler", NOTHING_AFTER.values(), ids=NOTHING_AFTER.keys())
def test_lines_of_nothing_cost_no_lines_read(filler, texts):
    content = filled(filler, head=b"x1;x2;y\n1,5;2;1\n", tail=b"-3;0,25;-1\n")
    data = load_csv(content)
    np.testing.assert_array_equal(data.X, [[1.5, 2.0], [-3.0, 0.25]])
    assert texts[0].lines_read == 1 + 3  # the separator's line, then the three rows


def test_comment_lines_cost_no_lines_read_and_the_header_above_the_rows_still_names(texts):
    content = filled(b"#\n# notes\n\n", head=b"# x1 x2 label\n",
                     tail=b"# u v kind\n1 2 a\n3 4 b\n")
    table = read_table(content)
    assert table.columns == ("u", "v", "kind")
    # the first line, then as many as the separator may be looked for in, then the two rows
    assert texts[0].lines_read == 1 + SNIFF_LINES + 2
    content = filled(b"\n", head=b"# x1 x2 label\n", tail=b"1 2 a\n3 4 b\n")
    assert read_table(content).columns == ("x1", "x2", "label")


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_rows_are_numbered_across_blocks_and_passed_over_lines(line_end):
    rows = [f"{i},{i},{'ab'[i % 2]}" for i in range(10_000)] + [""] * 30_000 + ["1,x,a"]
    content = line_end.join(["x1,x2,y", *rows]).encode()
    assert len(content) > 2 * BLOCK
    with pytest.raises(ValueError, match=r"^row 40002, column 'x2': 'x' is not a number$"):
        load_csv(content)


def test_a_bad_byte_far_down_is_named_once_the_rows_before_it_are_read():
    content = b"x1,x2,y\n" + b"1,2,a\n3,4,b\n" * 9_000 + "5,6,été\n".encode("latin-1")
    with pytest.raises(ValueError, match=r"^this is not a text CSV file: row 18002 is not"):
        load_csv(content)
    bad_row_first = b"x1,x2,y\n1,2,a\n3,x,b\n" + b"1,2,a\n" * 20_000 + b"\xff\n"
    with pytest.raises(ValueError, match=r"^row 3, column 'x2': 'x' is not a number$"):
        load_csv(bad_row_first)


TRAILING = {
    # a separator ending every line: three columns, the first row's error told at the end
    "three columns and a trailing separator": (
        b"abc,2,1,\n3,4,0,\n", r"^row 1, column 1: 'abc' is not a number$"),
    "two columns and a trailing separator": (
        b"1,2,\n3,4,\n", r"^row 1 has 2 columns; expected at least 3"),
}


@pytest.mark.parametrize(("content", "message"), TRAILING.values(), ids=TRAILING.keys())
def test_a_last_column_empty_so_far_holds_back_what_depends_on_it(content, message):
    with pytest.raises(ValueError, match=message):
        load_csv(content)


def test_a_fourth_column_that_fills_in_makes_a_wide_file_with_its_own_choice():
    table = read_table(b"abc,2,1,\n3,4,0,z\n5,6,1,y\n")
    assert len(table.columns) == 4
    assert table.numeric == (1, 2)
    assert len(table.dataset()) == 2


def test_an_upload_wider_than_the_limit_is_refused_as_the_choice_reads_it():
    from ui.file_choice import load_upload

    class Upload(io.BytesIO):
        name, size = "wide.csv", None

    with pytest.raises(ValueError, match=r"^row 1 has 101 columns; the limit is 100$"):
        load_upload(Upload(b"1," * 100 + b"a\n"))
    table = read_table(b",".join(b"c%d" % i for i in range(MAX_COLUMNS)) + b"\n"
                       + b"1," * (MAX_COLUMNS - 1) + b"a\n" + b"2," * (MAX_COLUMNS - 1) + b"b\n")
    assert len(table.columns) == MAX_COLUMNS


# ------------------------------------------ the first bad row, against a full scan

SAVE = "(save it from your spreadsheet as 'CSV UTF-8')"
# (what replaces a row's cells or bytes, the message a full scan finds for it)
DEFECTS = [
    ("ragged long", lambda row: f"row {row} has 4 cells, expected 3"),
    ("ragged short", lambda row: f"row {row} has 2 cells, expected 3"),
    ("x1 not a number", lambda row: f"row {row}, column 'x1': 'abc' is not a number"),
    ("x2 empty", lambda row: f"row {row}, column 'x2' is empty"),
    ("x1 nan", lambda row: f"row {row}, column 'x1': 'nan' is not a finite number"),
    ("x2 overflow", lambda row: f"row {row}, column 'x2': '1e999' is not a finite number"),
    ("label empty", lambda row: f"row {row}, column 'label' is empty"),
    ("label nan", lambda row: f"row {row}, column 'label': 'nan' is a missing value, "
                              "not a class label"),
    ("label too long", lambda row: f"row {row}, column 'label': '{'z' * 27}...' is "
                                   f"{MAX_LABEL + 1} characters long; a class name has at most "
                                   f"{MAX_LABEL}"),
    ("not UTF-8", lambda row: f"this is not a text CSV file: row {row} is not UTF-8 text {SAVE}"),
]
DEFECT_CELLS = {
    "ragged long": b"1,2,a,9", "ragged short": b"1,2", "x1 not a number": b"abc,2,a",
    "x2 empty": b"1,,a", "x1 nan": b"nan,2,a", "x2 overflow": b"1,1e999,a",
    "label empty": b"1,2,", "label nan": b"1,2,nan", "label too long": b"1,2," + b"z" * 101,
    "not UTF-8": "1,2,é".encode("latin-1"),
}


def first_bad_row(lines: list[bytes]) -> str | None:
    """The message for the first row that cannot be used, from a scan of every line.

    The file: a header ``x1,x2,label``, rows ``x,y,a`` or ``x,y,b``, blank lines.
    """
    labels = []
    for row, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            return f"this is not a text CSV file: row {row} is not UTF-8 text {SAVE}"
        if row == 1 or not line.strip():
            continue
        cells = line.split(",")
        if len(cells) != 3:
            return f"row {row} has {len(cells)} cells, expected 3"
        if not cells[2]:
            continue  # no label: the row is left out, its coordinates unread
        for name, cell in zip(("x1", "x2"), cells[:2], strict=True):
            if not cell:
                return f"row {row}, column '{name}' is empty"
            try:
                value = float(cell)
            except ValueError:
                return f"row {row}, column '{name}': {cell!r} is not a number"
            if not math.isfinite(value):
                return f"row {row}, column '{name}': {cell!r} is not a finite number"
        label = cells[2]
        if len(label) > MAX_LABEL:
            return (f"row {row}, column 'label': '{label[:27]}...' is {len(label)} characters "
                    f"long; a class name has at most {MAX_LABEL}")
        if label == "nan":
            return f"row {row}, column 'label': 'nan' is a missing value, not a class label"
        labels.append(label)
    if len(set(labels)) == 1:  # the rows of the other class all lost their label
        return f"column 'label' has only one class ({labels[0]!r}): two classes are needed"
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(2, 60),
    # (where among the rows after the second, what is wrong there)
    defects=st.lists(st.tuples(st.floats(0, 1), st.sampled_from(sorted(DEFECT_CELLS))),
                     max_size=4),
    # (where, how many): runs of blank lines, some past a block
    blanks=st.lists(st.tuples(st.floats(0, 1), st.integers(1, 40_000)), max_size=3),
    line_end=st.sampled_from([b"\n", b"\r\n"]),
)
def test_the_first_bad_row_named_is_the_first_a_full_scan_finds(rows, defects, blanks,
                                                                  line_end):
    lines = [b"x1,x2,label"] + [b"%d.5,%d,%s" % (i, -i, b"ab"[i % 2:][:1]) for i in range(rows)]
    for where, kind in defects:  # rows 1 and 2 stay good: they tell the header
        lines[2 + min(int(where * (rows - 1)), rows - 2)] = DEFECT_CELLS[kind]
    for where, count in sorted(blanks, reverse=True):
        at = 2 + int(where * (len(lines) - 2))
        lines[at:at] = [b""] * count
    content = line_end.join(lines) + line_end

    expected = first_bad_row(lines)
    if expected is None:
        assert len(load_csv(content)) == rows - lines.count(DEFECT_CELLS["label empty"])
    else:
        with pytest.raises(ValueError) as error:
            load_csv(content)
        assert str(error.value) == expected


# ------------------------------------------------- a good file, against pandas

coordinate = st.floats(allow_nan=False, allow_infinity=False, width=64)
label_pairs = st.sampled_from([("-1", "1"), ("0", "1"), ("false", "true"), ("cat", "dog"),
                               ("No", "Yes"), ("-1.0", "+1")])


@settings(max_examples=150, deadline=None)
@given(
    points=st.lists(st.tuples(coordinate, coordinate), min_size=2, max_size=40),
    signs=st.lists(st.booleans(), min_size=40, max_size=40),
    labels=label_pairs,
    delimiter=st.sampled_from([",", ";", "\t", " "]),
    decimal_comma=st.booleans(),
    header=st.booleans(),
    line_end=st.sampled_from(["\n", "\r\n", "\r"]),
    bom=st.booleans(),
    padding=st.sampled_from(["", "blank", "separators"]),
    quoted=st.booleans(),
    trailing=st.booleans(),
)
def test_a_good_file_reads_as_pandas_reads_it(points, signs, labels, delimiter, decimal_comma,
                                              header, line_end, bom, padding, quoted, trailing):
    signs = signs[: len(points)]
    signs[0], signs[1] = True, False
    whitespace = delimiter == " "
    comma = decimal_comma and delimiter == ";"
    quote = (lambda cell: f'"{cell}"') if quoted and not whitespace else str
    end = delimiter if trailing and not whitespace else ""
    lines = [delimiter.join(["x1", "x2", "label"]) + end] if header else []
    for (a, b), positive in zip(points, signs, strict=True):
        cells = [repr(a), repr(b)]
        if comma:
            cells = [cell.replace(".", ",") for cell in cells]
        lines.append(delimiter.join(map(quote, [*cells, labels[positive]])) + end)
        if padding == "blank":
            lines.append("")
        elif padding == "separators" and not whitespace:
            lines.append(delimiter * 2)
    content = (("\ufeff" if bom else "") + line_end.join(lines) + line_end).encode()

    frame = pd.read_csv(io.BytesIO(content), sep=r"\s+" if whitespace else delimiter,
                        header=0 if header else None, dtype=str, keep_default_na=False,
                        encoding="utf-8-sig", skip_blank_lines=True)
    frame = frame.fillna("")  # the cells a row of separators only lacks
    frame = frame[(frame != "").any(axis=1)]  # rows of separators only
    frame = frame.loc[:, (frame != "").any(axis=0)]  # the column a trailing separator makes
    expected_X = frame.iloc[:, :2].map(lambda cell: float(cell.replace(",", "."))).to_numpy()
    expected_y = np.where(frame.iloc[:, 2].to_numpy() == labels[1], 1.0, -1.0)

    data = load_csv(content)
    np.testing.assert_array_equal(data.X, expected_X)
    np.testing.assert_array_equal(data.y, expected_y)
    assert data.classes == labels


@settings(max_examples=100, deadline=None)
@given(
    values=st.lists(st.lists(st.integers(-999, 999), min_size=5, max_size=5), min_size=2,
                    max_size=30),
    kinds=st.lists(st.sampled_from(["setosa", "versicolor", "virginica"]), min_size=30,
                   max_size=30),
    x1=st.integers(0, 4), x2=st.integers(0, 4),
)
def test_a_wide_file_reads_as_pandas_reads_it(values, kinds, x1, x2):
    kinds = ["setosa", "versicolor", *kinds][: len(values)]
    lines = ["a,b,c,d,e,kind"] + [",".join([*(f"{v / 8}" for v in row), kind])
                                  for row, kind in zip(values, kinds, strict=True)]
    content = "\n".join(lines).encode()
    if x1 == x2:
        x2 = (x1 + 1) % 5
    frame = pd.read_csv(io.BytesIO(content))
    chosen = frame[frame["kind"].isin(["setosa", "versicolor"])]

    data = read_table(content).dataset(x1=x1, x2=x2, label=5, classes=("setosa", "versicolor"))
    np.testing.assert_array_equal(data.X, chosen.iloc[:, [x1, x2]].to_numpy(dtype=float))
    np.testing.assert_array_equal(data.y, np.where(chosen["kind"] == "versicolor", 1.0, -1.0))
