"""Tests for :func:`datasets.loader.load_csv`: every accepted variant, every refusal."""

from __future__ import annotations

import io
import re
import string

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets import Dataset
from datasets.loader import DEFAULT_NAME, MAX_BYTES, MAX_ROWS, REST, load_csv, read_table

# The points every good case writes in its own way; a case with more rows adds (0, 0), (1, 1).
POINTS = [[1.5, 2.0], [-3.0, 0.25]]
MORE_POINTS = [[0.0, 0.0], [1.0, 1.0]]


def check(data: Dataset, X, y, classes) -> None:
    assert isinstance(data, Dataset)
    np.testing.assert_array_equal(data.X, np.array(X, dtype=float))
    np.testing.assert_array_equal(data.y, np.array(y, dtype=float))
    assert data.classes == classes


# ---------------------------------------------------------------- good files

GOOD = {
    "header x1,x2,y": (b"x1,x2,y\n1.5,2,1\n-3,0.25,-1\n", [1, -1], ("-1", "1")),
    "no header": (b"1.5,2,1\n-3,0.25,-1\n", [1, -1], ("-1", "1")),
    "semicolon": (b"x1;x2;label\n1.5;2;1\n-3;0.25;-1\n", [1, -1], ("-1", "1")),
    "semicolon decimal comma": (b"x1;x2;label\n1,5;2;1\n-3;0,25;-1\n", [1, -1], ("-1", "1")),
    "semicolon decimal comma no header": (b"1,5;2;1\n-3;0,25;-1\n", [1, -1], ("-1", "1")),
    "tab": (b"x1\tx2\tlabel\n1.5\t2\t1\n-3\t0.25\t-1\n", [1, -1], ("-1", "1")),
    "tab no header": (b"1.5\t2\t1\n-3\t0.25\t-1\n", [1, -1], ("-1", "1")),
    "BOM": (b"\xef\xbb\xbfx1,x2,y\n1.5,2,1\n-3,0.25,-1\n", [1, -1], ("-1", "1")),
    "BOM no header": (b"\xef\xbb\xbf1.5,2,1\n-3,0.25,-1\n", [1, -1], ("-1", "1")),
    "CRLF": (b"x1,x2,y\r\n1.5,2,1\r\n-3,0.25,-1\r\n", [1, -1], ("-1", "1")),
    "CR": (b"x1,x2,y\r1.5,2,1\r-3,0.25,-1\r", [1, -1], ("-1", "1")),
    "blank lines": (
        b"\n  \nx1,x2,y\n\n1.5,2,1\n\t\n-3,0.25,-1\n\n\n \n",
        [1, -1],
        ("-1", "1"),
    ),
    "rows of empty cells": (b"x1;x2;y\n1,5;2;1\n;;\n-3;0,25;-1\n;;\n", [1, -1], ("-1", "1")),
    "whitespace in cells": (
        b"  x1 ,\tx2 , y  \n 1.5 ,  2 , 1 \n  -3,0.25  ,   -1\n",
        [1, -1],
        ("-1", "1"),
    ),
    "quoted cells": (b'"x1","x2","y"\n"1.5","2","1"\n-3,0.25,"-1"\n', [1, -1], ("-1", "1")),
    "scientific notation": (b"x1,x2,y\n1.5e0,2E+0,1\n-3.0,25e-2,-1\n", [1, -1], ("-1", "1")),
    "plus and minus one": (b"1.5,2,+1\n-3,0.25,-1\n", [1, -1], ("-1", "+1")),
    "float labels": (b"1.5,2,1.0\n-3,0.25,-1.0\n", [1, -1], ("-1.0", "1.0")),
    "mixed spellings of one label": (
        b"1.5,2,+1\n-3,0.25,-1\n0,0,1.0\n1,1,-1.0\n",
        [1, -1, 1, -1],
        ("-1", "+1"),
    ),
    "semicolon decimal comma labels": (b"1,5;2;1,0\n-3;0,25;-1,0\n", [1, -1], ("-1,0", "1,0")),
    "zero one": (b"x1,x2,y\n1.5,2,1\n-3,0.25,0\n", [1, -1], ("0", "1")),
    "other two numbers": (b"1.5,2,7\n-3,0.25,2\n", [1, -1], ("2", "7")),
    "true false": (b"x,y,label\n1.5,2,true\n-3,0.25,false\n", [1, -1], ("false", "true")),
    "true false any case": (
        b"1.5,2,TRUE\n-3,0.25,False\n0,0,true\n",
        [1, -1, 1],
        ("False", "TRUE"),
    ),
    "two strings": (b"x1,x2,label\n1.5,2,dog\n-3,0.25,cat\n", [1, -1], ("cat", "dog")),
    "two strings sorted case-sensitively": (b"1.5,2,cat\n-3,0.25,Dog\n", [1, -1], ("Dog", "cat")),
    "unicode labels": ("1.5,2,ñandú\n-3,0.25,águila\n".encode(), [1, -1], ("águila", "ñandú")),
    "x,y,label": (b"x,y,label\n1.5,2,1\n-3,0.25,-1\n", [1, -1], ("-1", "1")),
    "x,y,class": (b"x,y,class\n1.5,2,b\n-3,0.25,a\n", [1, -1], ("a", "b")),
    "a,b,target": (b"a,b,target\n1.5,2,1\n-3,0.25,0\n", [1, -1], ("0", "1")),
    "any names": (b"foo,bar,baz\n1.5,2,1\n-3,0.25,0\n", [1, -1], ("0", "1")),
    "label first": (b"label,x1,x2\n1,1.5,2\n-1,-3,0.25\n", [1, -1], ("-1", "1")),
    "label first, x,y": (b"Label,x,y\n1,1.5,2\n-1,-3,0.25\n", [1, -1], ("-1", "1")),
    "class in the middle": (b"u,CLASS,v\n1.5,yes,2\n-3,no,0.25\n", [1, -1], ("no", "yes")),
    "y first": (b"y,x1,x2\n1,1.5,2\n-1,-3,0.25\n", [1, -1], ("-1", "1")),
    "t in the middle": (b"x1,t,x2\n1.5,1,2\n-3,-1,0.25\n", [1, -1], ("-1", "1")),
    "x,y,t": (b"x,y,t\n1.5,2,1\n-3,0.25,-1\n", [1, -1], ("-1", "1")),
    "no trailing newline": (b"x1,x2,y\n1.5,2,1\n-3,0.25,-1", [1, -1], ("-1", "1")),
    # The label of three columns is the last one unless the header is unambiguous.
    "x,y,out": (b"x,y,out\n1.5,2,1\n-3,0.25,0\n", [1, -1], ("0", "1")),
    "x,y,and": (b"x,y,and\n1.5,2,1\n-3,0.25,0\n", [1, -1], ("0", "1")),
    "x,y,result": (b"x,y,result\n1.5,2,yes\n-3,0.25,no\n", [1, -1], ("no", "yes")),
    "y,t,z": (b"y,t,z\n1.5,2,b\n-3,0.25,a\n", [1, -1], ("a", "b")),
    "two label names": (b"class,x,label\n1.5,2,b\n-3,0.25,a\n", [1, -1], ("a", "b")),
    # Whitespace-separated, as np.savetxt writes and np.loadtxt reads.
    "spaces": (b"1.5 2 1\n-3   0.25 -1\n", [1, -1], ("-1", "1")),
    "spaces and tabs": (b"1.5 \t2 1\n  -3\t 0.25   -1  \n", [1, -1], ("-1", "1")),
    "spaces with header": (b"x1 x2 label\n1.5 2 b\n-3 0.25 a\n", [1, -1], ("a", "b")),
    "np.savetxt comments": (
        b"# x1 x2 label\n# saved by numpy\n1.5 2 1 # first\n\n-3 0.25 -1\n",
        [1, -1],
        ("-1", "1"),
    ),
    "np.savetxt header": (b"# x1 x2 label\n1.5 2 1\n-3 0.25 -1\n", [1, -1], ("-1", "1")),
    # Excel's first line naming the separator.
    "sep=;": (b"sep=;\nx1;x2;y\n1,5;2;1\n-3;0,25;-1\n", [1, -1], ("-1", "1")),
    "sep=, quoted": (b'"sep=,"\r\nx1,x2,y\r\n1.5,2,1\r\n-3,0.25,-1\r\n', [1, -1], ("-1", "1")),
    "sep=tab": (b"SEP=\t\n1.5\t2\t1\n-3\t0.25\t-1\n", [1, -1], ("-1", "1")),
    "trailing separator": (b"1.5,2,1,\n-3,0.25,-1,\n", [1, -1], ("-1", "1")),
    "trailing separator with header": (b"x1;x2;y;\n1,5;2;1;\n-3;0,25;-1;\n", [1, -1], ("-1", "1")),
    # Outside text: control and bidi characters go, a spreadsheet's text mark goes.
    "bidi override in a label": (
        "1.5,2,b\u202eevil\n-3,0.25,a\u2066\n".encode(),
        [1, -1],
        ("a", "bevil"),
    ),
    "formula marks": (b"1.5,2,'=cmd\n-3,0.25,'-x\n", [1, -1], ("-x", "=cmd")),
    "quote before a quote": (b"1.5,2,'b\n-3,0.25,''a\n", [1, -1], ("'a", "'b")),
}


def test_extreme_numbers():
    data = load_csv(b"-0.0,1e-300,1\n1e300,-0,0\n4.9e-324,-1.7976931348623157e308,1\n")
    X = [[-0.0, 1e-300], [1e300, 0.0], [5e-324, -1.7976931348623157e308]]
    check(data, X, [1, -1, 1], ("0", "1"))


@pytest.mark.parametrize(("content", "y", "classes"), GOOD.values(), ids=GOOD.keys())
def test_good_file(content, y, classes):
    data = load_csv(content)
    check(data, POINTS + MORE_POINTS[: len(y) - 2], y, classes)
    assert data.name == DEFAULT_NAME


@pytest.mark.parametrize(("content", "y", "classes"), GOOD.values(), ids=GOOD.keys())
def test_good_file_from_path_and_file_object(tmp_path, content, y, classes):
    path = tmp_path / "points.csv"
    path.write_bytes(content)
    from_bytes = load_csv(content)
    for source in (path, str(path), io.BytesIO(content)):
        data = load_csv(source)
        check(data, from_bytes.X, y, classes)


def test_x_y_label_reads_y_as_a_coordinate():
    data = load_csv(b"x,y,label\n0,5,a\n1,6,b\n2,7,a\n")
    check(data, [[0, 5], [1, 6], [2, 7]], [-1, 1, -1], ("a", "b"))


def test_larger_file_keeps_row_order():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 2))
    labels = np.where(X[:, 0] > 0, "pos", "neg")
    text = "x1,x2,class\n" + "".join(
        f"{a!r},{b!r},{c}\n" for (a, b), c in zip(X.tolist(), labels, strict=True)
    )
    data = load_csv(text.encode())
    np.testing.assert_array_equal(data.X, X)
    np.testing.assert_array_equal(data.y, np.where(labels == "pos", 1.0, -1.0))
    assert data.classes == ("neg", "pos")


def test_result_is_read_only():
    data = load_csv(b"1,2,1\n3,4,-1\n")
    assert not data.X.flags.writeable
    assert not data.y.flags.writeable


def test_exactly_max_rows_is_accepted():
    content = b"x1,x2,y\n" + b"1,2,1\n3,4,0\n" * (MAX_ROWS // 2)
    assert len(load_csv(content)) == MAX_ROWS


# --------------------------------------------------------------------- names


class UploadedFile(io.BytesIO):
    """Stands in for Streamlit's UploadedFile: a BytesIO with a name and a size."""

    def __init__(self, content: bytes, name: str):
        super().__init__(content)
        self.name = name
        self.size = len(content)


CONTENT = b"1,2,1\n3,4,-1\n"


def test_name_from_path(tmp_path):
    path = tmp_path / "my points.v2.csv"
    path.write_bytes(CONTENT)
    assert load_csv(path).name == "my points.v2"
    assert load_csv(str(path)).name == "my points.v2"


def test_name_from_file_object_name(tmp_path):
    assert load_csv(UploadedFile(CONTENT, "iris setosa.csv")).name == "iris setosa"
    assert load_csv(UploadedFile(CONTENT, "folder/two moons.CSV")).name == "two moons"
    path = tmp_path / "opened.csv"
    path.write_bytes(CONTENT)
    with open(path, "rb") as file:
        assert load_csv(file).name == "opened"


@pytest.mark.parametrize(
    "source", [CONTENT, bytearray(CONTENT), memoryview(CONTENT), io.BytesIO(CONTENT)]
)
def test_name_defaults(source):
    assert load_csv(source).name == DEFAULT_NAME == "Your data"


def test_file_object_is_read_from_its_position():
    file = io.BytesIO(b"junk line\n" + CONTENT)
    file.seek(len(b"junk line\n"))
    check(load_csv(file), [[1, 2], [3, 4]], [1, -1], ("-1", "1"))


def test_text_mode_file_is_refused(tmp_path):
    path = tmp_path / "points.csv"
    path.write_bytes(CONTENT)
    with open(path) as file, pytest.raises(TypeError, match="binary mode"):
        load_csv(file)


@pytest.mark.parametrize("source", [42, None, ["1,2,1"]])
def test_unsupported_source_is_refused(source):
    with pytest.raises(TypeError, match="must be a path, bytes or a binary file object"):
        load_csv(source)


# ----------------------------------------------------------------- bad files

UNCLOSED = re.escape('a quoted cell runs past the end of the line; check its quotes (")')

BAD = {
    "empty": (b"", "^the file is empty$"),
    "only blank lines": (b"\n \r\n\t\n\n", "^the file is empty$"),
    "only a BOM": (b"\xef\xbb\xbf", "^the file is empty$"),
    "only separators": (b";;\n,,\n", "^the file is empty$"),
    "only empty quoted cells": (b'"","",""\n', "^the file is empty$"),
    "header only": (b"x1,x2,y\n", r"^the file has a header \(row 1\) but no data rows$"),
    "header and blank lines": (
        b"\n\nx1,x2,y\n\n\n",
        r"^the file has a header \(row 3\) but no data rows$",
    ),
    "one class": (
        b"x1,x2,label\n1,2,1\n3,4,1\n",
        r"^column 'label' has only one class \('1'\): two classes are needed$",
    ),
    "one class spelled two ways": (
        b"1,2,1\n3,4,+1\n5,6,1.0\n",
        r"^column 3 has only one class \('1'\): two classes are needed$",
    ),
    "one class true any case": (
        b"1,2,true\n3,4,True\n",
        r"^column 3 has only one class \('true'\): two classes are needed$",
    ),
    "not a number": (
        b"x1,x2,y\n1,2,1\n\n3,4,-1\n\n5,6,1\nabc7,abc,1\n",
        r"^row 7, column 'x1': 'abc7' is not a number$",
    ),
    "not a number in x2": (
        b"x1,x2,y\n1,2,1\n\n3,4,-1\n\n5,6,1\n7,abc,1\n",
        r"^row 7, column 'x2': 'abc' is not a number$",
    ),
    "not a number without header": (
        b"1,2,1\n3,abc,-1\n",
        r"^row 2, column 2: 'abc' is not a number$",
    ),
    "not a number in the first row without header": (
        b"abc,2,1\n3,4,-1\n",
        r"^row 1, column 1: 'abc' is not a number$",
    ),
    "not a number, label named first": (
        b"label,x,y\n1,2,abc\n",
        r"^row 2, column 'y': 'abc' is not a number \(column 'label' is the label\)$",
    ),
    "decimal comma in a tab file": (
        b"x1\tx2\ty\n1,5\t2\t1\n",
        (
            r"^row 2, column 'x1': '1,5' is not a number "
            r"\(a decimal comma is read only in files separated by semicolons\)$"
        ),
    ),
    "thousands separators": (b"x1;x2;y\n1.000,5;2;1\n", r"^row 2, column 'x1': '1.000,5' is not"),
    "underscore in a number": (b"x1,x2,y\n1_000,2,1\n", r"^row 2, column 'x1': '1_000' is not"),
    "long cell is shortened": (
        b"x1,x2,y\n" + b"z" * 100 + b",2,1\n",
        r"^row 2, column 'x1': 'z{27}\.\.\.' is not a number$",
    ),
    "empty coordinate": (b"x1,x2,y\n1,2,1\n\n,4,-1\n", r"^row 4, column 'x1' is empty$"),
    "whitespace coordinate": (b"x1,x2,y\n1,  ,1\n", r"^row 2, column 'x2' is empty$"),
    "empty label leaves one class": (
        b"x1,x2,label\n1,2,1\n3,4,\n", r"^column 'label' has only one class \('1'\)"),
    "no label at all": (b"x1,x2,label\n1,2,\n3,4,\n", r"^column 'label' has no labels"),
    "empty cell without header": (b"1,2,1\n3,,0\n", r"^row 2, column 2 is empty$"),
    "nan": (b"x1,x2,y\n1,2,1\n\nnan,4,-1\n", r"^row 4, column 'x1': 'nan' is not a finite number$"),
    "NaN": (b"x1,x2,y\n1,2,1\nNaN,4,-1\n", r"^row 3, column 'x1': 'NaN' is not a finite number$"),
    "inf": (b"x1,x2,y\n1,inf,1\n", r"^row 2, column 'x2': 'inf' is not a finite number$"),
    "-Infinity": (b"1,-Infinity,1\n", r"^row 1, column 2: '-Infinity' is not a finite number$"),
    "overflow": (b"x1,x2,y\n1e400,2,1\n", r"^row 2, column 'x1': '1e400' is not a finite number$"),
    "nan label": (
        b"x1,x2,y\n1,2,1\n3,4,nan\n",
        r"^row 3, column 'y': 'nan' is a missing value, not a class label$",
    ),
    "ragged long row": (
        b"x1,x2,y\n1,2,1\n3,4,-1\n\n5,6,1,9\n",
        r"^row 5 has 4 cells, expected 3$",
    ),
    "ragged short row": (b"1;2;1\n3;4\n", r"^row 2 has 2 cells, expected 3$"),
    "two columns with header": (
        b"x,y\n1,2\n",
        r"^the header \(row 1\) has 2 columns \('x', 'y'\); expected at least 3: x1, x2, label$",
    ),
    "two columns without header": (
        b"1;2\n3;4\n",
        r"^row 1 has 2 columns; expected at least 3: x1, x2, label$",
    ),
    "one column": (
        b"1\n2\n",
        (
            r"^row 1 has 1 column; expected at least 3: x1, x2, label "
            r"\(separate the cells with commas, semicolons, tabs or spaces\)$"
        ),
    ),
    "two columns and a trailing separator": (
        b"1,2,\n3,4,\n",
        r"^row 1 has 2 columns; expected at least 3: x1, x2, label$",
    ),
    "ragged row in a wide file": (
        b"a,b,c,d\n1,2,3,x\n1,2,3\n",
        r"^row 3 has 3 cells, expected 4$",
    ),
    "too many classes": (
        b"".join(b"%d,0,%d\n" % (i, i) for i in range(101)),
        r"^column 3 has 101 different values: a label column has 2 to 100 classes$",
    ),
    "far too many classes": (
        b"x,y,result\n" + b"".join(b"%d,0,%d.5\n" % (i, i) for i in range(2000)),
        (
            r"^column 'result' has more than 1000 different values: "
            r"a label column has 2 to 100 classes$"
        ),
    ),
    "label too long": (
        b"1,2,a\n3,4," + b"b" * 101 + b"\n",
        r"^row 2, column 3: 'b{27}\.\.\.' is 101 characters long; a class name has at most 100$",
    ),
    "label of control characters only": (
        b"1,2,a\n3,4,\x1b\x07\n",
        r"^column 3 has only one class \('a'\)",
    ),
    "wide file without two numeric columns": (
        b"id,name,x,label\na,b,1,p\nc,d,2,q\n",
        r"^row 2, column 'id': 'a' is not a number$",
    ),
    "unclosed quote": (b'x1,x2,y\n"1,2,1\n3,4,-1\n', rf"^row 2: {UNCLOSED}$"),
    "unclosed quote in the last row": (
        b'x1,x2,y\n1,2,1\n3,4,-1\n"5,6,1\n',
        rf"^row 4: {UNCLOSED}$",
    ),
    "giant cell": (b"x" * 1_500_000, r"^row 1 cannot be read as CSV: field larger than"),
    "giant cell in a row": (
        b"1.5,2,1\n1," + b"9" * 200_000 + b",1\n",
        r"^row 2 cannot be read as CSV: field larger than",
    ),
    "NUL bytes": (b"1,2,1\n\x003,4,-1\n", r"^this is not a text CSV file: it contains NUL bytes"),
    "UTF-16": (
        "x1,x2,y\n1,2,1\n".encode("utf-16"),
        r"^this is not a text CSV file: it contains NUL bytes",
    ),
    "PNG": (
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        r"^this is not a text CSV file: it contains NUL bytes",
    ),
    "Latin-1": (
        "x1,x2,y\n1,2,oui\n3,4,non\n5,6,été\n".encode("latin-1"),
        r"^this is not a text CSV file: row 4 is not UTF-8 text",
    ),
    "invalid UTF-8 at the start": (
        b"\xff\xfe1,2,1\n",
        r"^this is not a text CSV file: row 1 is not UTF-8 text",
    ),
    "too many rows": (
        b"x1,x2,y\n" + b"1,2,1\n3,4,0\n" * (MAX_ROWS // 2) + b"5,6,1\n",
        rf"^more than {MAX_ROWS} rows; the limit is {MAX_ROWS}$",
    ),
    "too large": (b"1,2,1\n" * (MAX_BYTES // 6 + 1), r"^the file is 2\.1 MB; the limit is 2 MB$"),
}


@pytest.mark.parametrize(("content", "message"), BAD.values(), ids=BAD.keys())
def test_bad_file(content, message):
    with pytest.raises(ValueError, match=message):
        load_csv(content)


@pytest.mark.parametrize(("content", "message"), BAD.values(), ids=BAD.keys())
def test_bad_file_from_path_and_file_object(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    for source in (path, io.BytesIO(content), UploadedFile(content, "bad.csv")):
        with pytest.raises(ValueError, match=message):
            load_csv(source)


def test_messages_quote_the_literal_examples():
    # The wording other modules and the page text rely on.
    cases = [
        (b"x1,x2,y\n1,2,1\n1,2,1\n1,2,1\n1,2,1\n1,2,1\n1,abc,-1\n", "row 7, column 'x2': 'abc'"),
        (b"x1,x2,y\n1,2,1\n3,4,1\n,2,1\n", "row 4, column 'x1' is empty"),
        (b"x1,x2,y\n1,2,1\nnan,2,1\n", "row 3, column 'x1': 'nan' is not a finite number"),
        (b"1,2,1\n1,2,1\n1,2,1\n1,2,1\n1,2,1,1\n", "row 5 has 4 cells, expected 3"),
        (b"1,2,1\n", "only one class ('1'): two classes are needed"),
    ]
    for content, message in cases:
        with pytest.raises(ValueError) as error:
            load_csv(content)
        assert message in str(error.value)


# -------------------------------------------------------------------- limits

THIRTY_MB = 30_000_000


class Stream(io.RawIOBase):
    """A non-seekable stream of endless CSV rows that counts the bytes it hands out."""

    def __init__(self):
        self.given = 0

    def readable(self):
        return True

    def readinto(self, buffer):
        chunk = (b"1,2,1\n" * (len(buffer) // 6 + 1))[: len(buffer)]
        buffer[: len(chunk)] = chunk
        self.given += len(chunk)
        return len(chunk)


def test_thirty_megabyte_file_is_refused_without_being_opened(tmp_path, monkeypatch):
    path = tmp_path / "huge.csv"
    with open(path, "wb") as file:
        file.write(b"1.0,2.0,1\n" * (THIRTY_MB // 10))
    opened = []
    real_open = open
    monkeypatch.setattr("builtins.open", lambda file, *a, **k: opened.append(str(file))
                        or real_open(file, *a, **k))
    with pytest.raises(ValueError, match=r"^the file is 30\.0 MB; the limit is 2 MB$"):
        load_csv(path)
    assert str(path) not in opened


def test_oversized_sources_are_refused_before_reading():
    content = b"1.0,2.0,1\n" * (THIRTY_MB // 10)
    for source in (content, io.BytesIO(content), UploadedFile(content, "huge.csv")):
        with pytest.raises(ValueError, match=r"^the file is 30\.0 MB; the limit is 2 MB$"):
            load_csv(source)
    upload = UploadedFile(content, "huge.csv")
    with pytest.raises(ValueError, match="the limit is 2 MB"):
        load_csv(upload)
    assert upload.tell() == 0  # refused on its announced size, nothing read


def test_endless_stream_is_read_only_up_to_the_cap():
    stream = Stream()
    with pytest.raises(ValueError, match=r"^the file is more than 2 MB; the limit is 2 MB$"):
        load_csv(stream)
    assert stream.given <= MAX_BYTES + 1


def test_file_at_the_byte_cap_is_accepted():
    row = b"1,2,1\n3,4,-1\n"
    content = row * (MAX_BYTES // len(row))
    content += b"\n" * (MAX_BYTES - len(content))
    assert len(content) == MAX_BYTES
    # Over the row cap but not over the byte cap: the row cap is what refuses it.
    with pytest.raises(ValueError, match="more than 20000 rows"):
        load_csv(content)


# ------------------------------------------------------------------ property

coordinate = st.floats(allow_nan=False, allow_infinity=False)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


word = st.text(string.ascii_letters, min_size=1, max_size=8).filter(
    lambda text: not _is_number(text) and text.lower() not in ("true", "false")
)
# (class -1, class +1) as the file writes them.
label_pairs = st.one_of(
    st.lists(word, min_size=2, max_size=2, unique=True).map(lambda pair: tuple(sorted(pair))),
    st.sampled_from(
        [("-1", "1"), ("-1", "+1"), ("-1.0", "1.0"), ("0", "1"), ("false", "true"), ("No", "Yes")]
    ),
)


@settings(max_examples=200, deadline=None)
@given(
    points=st.lists(st.tuples(coordinate, coordinate), min_size=2, max_size=40),
    signs=st.lists(st.booleans(), min_size=40, max_size=40),
    labels=label_pairs,
    delimiter=st.sampled_from([",", ";", "\t"]),
    decimal_comma=st.booleans(),
    header=st.sampled_from([None, ("x1", "x2", "y"), ("x", "y", "label"), ("a", "b", "c")]),
    newline=st.sampled_from(["\n", "\r\n"]),
    bom=st.booleans(),
    blank_lines=st.booleans(),
)
def test_round_trip(
    points, signs, labels, delimiter, decimal_comma, header, newline, bom, blank_lines
):
    signs = signs[: len(points)]
    signs[0], signs[1] = True, False  # both classes present
    lines = [delimiter.join(header)] if header else []
    for (a, b), positive in zip(points, signs, strict=True):
        cells = [repr(a), repr(b)]
        if delimiter == ";" and decimal_comma:
            cells = [cell.replace(".", ",") for cell in cells]
        lines.append(delimiter.join([*cells, labels[positive]]))
        if blank_lines:
            lines.append("")
    text = ("\ufeff" if bom else "") + newline.join(lines) + newline

    data = load_csv(text.encode())

    np.testing.assert_allclose(data.X, np.array(points), rtol=1e-12, atol=0)
    np.testing.assert_array_equal(data.y, np.where(signs, 1.0, -1.0))
    assert data.classes == labels


# ------------------------------------------------- wider files, more classes

IRIS_LIKE = (
    b"sepal_length,sepal_width,petal_length,petal_width,species\n"
    b"5.1,3.5,1.4,0.2,setosa\n7.0,3.2,4.7,1.4,versicolor\n6.3,3.3,6.0,2.5,virginica\n"
    b"4.9,3.0,1.4,0.2,setosa\n6.4,3.2,4.5,1.5,versicolor\n5.8,2.7,5.1,1.9,virginica\n"
    b"4.7,3.2,1.3,0.2,setosa\n"
)

# content -> (columns, numeric, x1, x2, label, classes most frequent first,
#             default data set's name, classes, number of points)
TABLES = {
    "iris-like": (
        IRIS_LIKE,
        ("sepal_length", "sepal_width", "petal_length", "petal_width", "species"),
        (0, 1, 2, 3), 0, 1, 4, ("setosa", "versicolor", "virginica"),
        "Your data (sepal_length, sepal_width; setosa vs versicolor)",
        ("setosa", "versicolor"), 5,
    ),
    "banknote-like, no header": (
        b"3.6,8.6,-2.8,-0.4,0\n4.5,8.1,-2.4,-1.4,0\n-1.3,-2.4,4.1,0.6,1\n",
        ("column 1", "column 2", "column 3", "column 4", "column 5"),
        (0, 1, 2, 3, 4), 0, 1, 4, ("0", "1"),
        "Your data (column 1, column 2)", ("0", "1"), 3,
    ),
    "label named in the middle": (
        b"a;b;class;c\n1;2;x;3\n4;5;y;6\n",
        ("a", "b", "class", "c"), (0, 1, 3), 0, 1, 2, ("x", "y"),
        "Your data (a, b)", ("x", "y"), 2,
    ),
    "pandas index column": (
        b",x1,x2,label\n0,1,2,a\n1,3,4,b\n",
        ("column 1", "x1", "x2", "label"), (0, 1, 2), 1, 2, 3, ("a", "b"),
        "Your data (x1, x2)", ("a", "b"), 2,
    ),
    "id and name columns": (
        b"id,name,u,v,w,group\n1,ann,0,1,2,g1\n2,bob,3,4,5,g2\n3,cy,6,7,8,g2\n",
        ("id", "name", "u", "v", "w", "group"), (0, 2, 3, 4), 2, 3, 5, ("g2", "g1"),
        "Your data (u, v)", ("g1", "g2"), 3,
    ),
    "last column is a measurement": (
        b"h,w,kind,score\n" + b"".join(b"%d,2,%s,%d.5\n" % (i, b"ab"[i % 2:][:1], i)
                                        for i in range(150)),
        ("h", "w", "kind", "score"), (0, 1, 3), 0, 1, 2, ("a", "b"),
        "Your data (h, w)", ("a", "b"), 150,
    ),
    "three classes in three columns": (
        b"x1,x2,label\n1,2,b\n3,4,a\n\n5,6,b\n7,8,c\n9,9,c\n0,0,c\n",
        ("x1", "x2", "label"), (0, 1), 0, 1, 2, ("c", "b", "a"),
        "Your data (b vs c)", ("b", "c"), 5,
    ),
    "three numeric classes, ties keep the first seen": (
        b"1,2,0\n3,4,1\n5,6,-1\n",
        ("column 1", "column 2", "column 3"), (0, 1, 2), 0, 1, 2, ("0", "1", "-1"),
        "Your data (0 vs 1)", ("0", "1"), 2,
    ),
    "decimal comma in a comma file is four columns": (
        b"1,5,2,1\n3,5,4,0\n",
        ("column 1", "column 2", "column 3", "column 4"), (0, 1, 2, 3), 0, 1, 3, ("1", "0"),
        "Your data (column 1, column 2)", ("0", "1"), 2,
    ),
}


@pytest.mark.parametrize("case", TABLES.values(), ids=TABLES.keys())
def test_table_defaults(case):
    content, columns, numeric, x1, x2, label, classes, name, pair, n = case
    table = read_table(content)
    assert table.columns == columns
    assert table.numeric == numeric
    assert (table.x1, table.x2, table.label) == (x1, x2, label)
    assert table.classes() == classes
    assert not table.is_plain
    data = table.dataset()
    assert (data.name, data.classes, len(data)) == (name, pair, n)
    check(load_csv(content), data.X, data.y, data.classes)


def test_table_choice_of_columns_and_classes():
    table = read_table(UploadedFile(IRIS_LIKE, "iris.csv"))
    data = table.dataset(x1=2, x2=3, classes=("virginica", "versicolor"))
    assert data.name == "iris (petal_length, petal_width; versicolor vs virginica)"
    assert data.classes == ("versicolor", "virginica")
    np.testing.assert_array_equal(data.X, [[4.7, 1.4], [6.0, 2.5], [4.5, 1.5], [5.1, 1.9]])
    np.testing.assert_array_equal(data.y, [-1, 1, -1, 1])


def test_one_class_against_the_rest():
    data = load_csv(IRIS_LIKE, classes=("setosa", REST))
    assert data.classes == ("not setosa", "setosa")
    assert data.name == "Your data (sepal_length, sepal_width; setosa vs the rest)"
    assert len(data) == 7
    np.testing.assert_array_equal(data.y, [1, -1, -1, 1, -1, -1, 1])


def test_a_plain_file_has_nothing_to_choose():
    assert read_table(b"x,y,out\n1,2,a\n3,4,b\n").is_plain


BAD_CHOICES = {
    "same column twice": (dict(x1=0, x2=0), r"^x1, x2 and the label must be three different"),
    "label as a coordinate": (dict(x1=4), r"^x1, x2 and the label must be three different"),
    "no such column": (dict(x2=9), r"^x2: there is no column 10$"),
    "a class the file lacks": (
        dict(classes=("setosa", "rose")),
        r"^column 'species' has no class 'rose'$",
    ),
    "one class twice": (dict(classes=("setosa", "setosa")), r"^expected two different classes"),
    "rest first": (dict(classes=(REST, "setosa")), r"^expected two different classes"),
}


@pytest.mark.parametrize(("choice", "message"), BAD_CHOICES.values(), ids=BAD_CHOICES.keys())
def test_bad_choice(choice, message):
    with pytest.raises(ValueError, match=message):
        load_csv(IRIS_LIKE, **choice)


def test_a_measurement_is_no_label_choice():
    content = TABLES["last column is a measurement"][0]
    assert read_table(content).labels == (2,)  # w has one value, score 150
    with pytest.raises(
        ValueError, match=r"^column 'score' has 150 different values: a label column has 2 to 100"
    ):
        load_csv(content, label=3, x1=0, x2=1)


def test_a_column_with_a_word_is_no_coordinate_choice():
    table = read_table(b"a,b,note,label\n1,2,ok,p\n3,4,5,q\n")
    assert table.numeric == (0, 1)
    with pytest.raises(ValueError, match=r"^row 2, column 'note': 'ok' is not a number$"):
        table.dataset(x1=0, x2=2)


def test_a_file_of_iris_width_at_the_row_limit_loads_every_value_and_label():
    # how long it takes is measured, not tested: bench/loader_cost.py
    rng = np.random.default_rng(1)
    X = rng.normal(size=(MAX_ROWS, 4)).round(3)
    names = rng.choice(["a", "b", "c"], size=MAX_ROWS)
    text = "p,q,r,s,kind\n" + "".join(
        f"{a},{b},{c},{d},{k}\n" for (a, b, c, d), k in zip(X.tolist(), names, strict=True)
    )
    table = read_table(text.encode())
    data = table.dataset(x1=1, x2=3, classes=("a", REST))
    np.testing.assert_array_equal(data.X, X[:, [1, 3]])
    np.testing.assert_array_equal(data.y, np.where(names == "a", 1.0, -1.0))
