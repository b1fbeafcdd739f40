"""Tests for :func:`datasets.loader.load_csv`: every accepted variant, every refusal."""

from __future__ import annotations

import io
import re
import string
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets import Dataset
from datasets.loader import DEFAULT_NAME, MAX_BYTES, MAX_ROWS, load_csv

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
    "three classes": (
        b"x1,x2,label\n1,2,b\n3,4,a\n\n5,6,b\n7,8,c\n",
        (
            r"^column 'label' has 3 classes \('a', 'b', 'c'\): exactly two are expected "
            r"\(the third, 'c', first appears in row 6\)$"
        ),
    ),
    "three numeric classes": (
        b"1,2,0\n3,4,1\n5,6,-1\n",
        (
            r"^column 3 has 3 classes \('-1', '0', '1'\): exactly two are expected "
            r"\(the third, '-1', first appears in row 3\)$"
        ),
    ),
    "many classes": (
        b"".join(b"%d,0,%d\n" % (i, i) for i in range(10)),
        r"^column 3 has 10 classes \('0', '1', '2', '3', '4', \.\.\.\): exactly two are expected",
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
    "empty label": (b"x1,x2,label\n1,2,1\n3,4,\n", r"^row 3, column 'label' is empty$"),
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
    "trailing separator": (b"1,2,1,\n", r"^row 1 has 4 columns; expected 3: x1, x2, label$"),
    "two columns with header": (
        b"x,y\n1,2\n",
        r"^the header \(row 1\) has 2 columns \('x', 'y'\); expected 3: x1, x2, label$",
    ),
    "four columns with header": (
        b"\nid;x1;x2;y\n1;2;3;1\n",
        (
            r"^the header \(row 2\) has 4 columns \('id', 'x1', 'x2', 'y'\); "
            r"expected 3: x1, x2, label$"
        ),
    ),
    "four columns without header": (
        b"1\t2\t3\t1\n",
        r"^row 1 has 4 columns; expected 3: x1, x2, label$",
    ),
    "decimal comma in a comma file": (
        b"1,5,2,1\n",
        r"^row 1 has 4 columns; expected 3: x1, x2, label$",
    ),
    "space separated": (
        b"1 2 1\n3 4 -1\n",
        (
            r"^row 1 has 1 column; expected 3: x1, x2, label "
            r"\(separate the cells with commas, semicolons or tabs\)$"
        ),
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
        (b"1,2,a\n1,2,b\n1,2,c\n", "3 classes ('a', 'b', 'c'): exactly two are expected"),
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


def test_thirty_megabyte_file_is_refused_quickly(tmp_path):
    path = tmp_path / "huge.csv"
    with open(path, "wb") as file:
        file.write(b"1.0,2.0,1\n" * (THIRTY_MB // 10))
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"^the file is 30\.0 MB; the limit is 2 MB$"):
        load_csv(path)
    assert time.perf_counter() - start < 1.0


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
