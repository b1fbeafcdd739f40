"""Files the CSV loader must refuse, each about the 2 MB it accepts, with how much of each the
refusal may read: tests/test_loader_bounds.py holds the loader to those bounds, and
bench/loader_cost.py measures what reading them costs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from datasets.dialect import BLOCK, MAX_BYTES, SNIFF_LINES
from datasets.loader import MAX_COLUMNS, MAX_ROWS


def filled(line: bytes, head: bytes = b"", tail: bytes = b"") -> bytes:
    """``head``, ``line`` as many times as fit in the loader's 2 MB, then ``tail``."""
    return head + line * ((MAX_BYTES - len(head) - len(tail)) // len(line)) + tail


def random_bytes(alphabet: bytes) -> bytes:
    """2 MB drawn from ``alphabet`` (seeded)."""
    rng = np.random.default_rng(0)
    return bytes(np.frombuffer(alphabet, dtype=np.uint8)[rng.integers(0, len(alphabet),
                                                                        MAX_BYTES)])


@dataclass(frozen=True)
class Shape:
    """A file the loader must refuse, and how much of it the refusal may read."""

    content: object  # () -> bytes, so that the files are made only when used
    message: str  # the refusal, a regular expression
    lines: int  # at most this many lines read
    decoded: int  # at most this many bytes decoded


ONE_COLUMN = r"^row 1 has 1 column; expected at least 3: x1, x2, label \(separate"
EMPTY = r"^the file is empty$"
TOO_MANY_ROWS = rf"^more than {MAX_ROWS} rows; the limit is {MAX_ROWS}$"
NUL = r"^this is not a text CSV file: it contains NUL bytes"
FIRST_BLOCK = BLOCK + 1_000  # a block ends at the first line end past BLOCK bytes
# Reading row 1 takes three lines: the line the separator is found from, and
# the first two rows (a header is told from the row under it).
ROW_1 = 3

HOSTILE = {
    "one character a line": Shape(lambda: filled(b"x\n"), ONE_COLUMN, ROW_1, FIRST_BLOCK),
    "'#' a line": Shape(lambda: filled(b"#\n"), ONE_COLUMN, SNIFF_LINES + 1 + ROW_1,
                        FIRST_BLOCK),
    "comment lines naming three columns": Shape(
        lambda: filled(b"# a b c\n"), EMPTY, SNIFF_LINES + 1, MAX_BYTES),
    # Nothing is known to be empty before its end: the whole file is decoded
    # and passed over in C, and not one line reaches the loader.
    "blank lines": Shape(lambda: filled(b"\n"), EMPTY, 0, MAX_BYTES),
    "',,' lines": Shape(lambda: filled(b",,\n"), EMPTY, 0, MAX_BYTES),
    "';;;' lines with CRLF": Shape(lambda: filled(b";;;\r\n"), EMPTY, 0, MAX_BYTES),
    "tabs and spaces": Shape(lambda: filled(b" \t \n"), EMPTY, 0, MAX_BYTES),
    "330,000 tiny valid rows": Shape(
        lambda: filled(b"1,2,1\n3,4,0\n"), TOO_MANY_ROWS, MAX_ROWS + 2,
        6 * (MAX_ROWS + 1) + FIRST_BLOCK),
    "rows of empty quoted cells": Shape(
        lambda: filled(b'"",""\n'), TOO_MANY_ROWS, MAX_ROWS + 2,
        6 * (MAX_ROWS + 1) + FIRST_BLOCK),
    "330,000 rows of a wide file": Shape(
        lambda: filled(b"1,2,3,a\n4,5,6,b\n", head=b"p,q,r,kind\n"), TOO_MANY_ROWS,
        MAX_ROWS + 3, 8 * (MAX_ROWS + 2) + FIRST_BLOCK),
    "one row of 200,000 columns": Shape(
        lambda: b"1," * 199_999 + b"1\n", rf"^row 1 has 200000 columns; the limit is "
        rf"{MAX_COLUMNS}$", ROW_1, 400_000),
    "rows of 1,000 columns": Shape(
        lambda: filled(b"0," * 999 + b"0\n"), rf"^row 1 has 1000 columns; the limit is "
        rf"{MAX_COLUMNS}$", ROW_1, FIRST_BLOCK + 2_000),
    "a header of 1,000 names": Shape(
        lambda: filled(b"0," * 999 + b"0\n", head=b",".join(b"c%d" % i for i in range(1000))
                       + b"\n"), r"^the header \(row 1\) has 1000 columns", ROW_1,
        FIRST_BLOCK + 7_000),
    "a bad coordinate in row 2, then good rows": Shape(
        lambda: filled(b"1,2,a\n3,4,b\n", head=b"x1,x2,label\n1,abc,a\n"),
        r"^row 2, column 'x2': 'abc' is not a number$", ROW_1 + 1, FIRST_BLOCK),
    "a ragged row 3 in a wide file, then good rows": Shape(
        lambda: filled(b"1,2,3,4,a\n", head=b"1,2,3,4,b\n5,6,7,8,a\n9,9,9,b\n"),
        r"^row 3 has 4 cells, expected 5$", ROW_1 + 1, FIRST_BLOCK),
    "a nan label in row 1 of three columns": Shape(
        lambda: filled(b"1,2,a\n", head=b"1,2,nan\n"), r"^row 1, column 3: 'nan' is a missing",
        ROW_1, FIRST_BLOCK),
    "one line of 2 MB": Shape(lambda: b"x" * (MAX_BYTES - 1) + b"\n",
                              r"^row 1 cannot be read as CSV: field larger than", 2, MAX_BYTES),
    "random bytes": Shape(lambda: random_bytes(bytes(range(256))), NUL, 0, FIRST_BLOCK),
    "random bytes without NUL": Shape(
        lambda: random_bytes(bytes(range(1, 256))),
        r"^this is not a text CSV file: row 1 is not UTF-8 text", 0, FIRST_BLOCK),
    "a PNG": Shape(lambda: (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
                            + random_bytes(b"\x00\xff"))[:MAX_BYTES], NUL, 0, 9),
    "NUL bytes, no line end": Shape(lambda: b"\x00" * MAX_BYTES, NUL, 0, 1),
    "Latin-1 in row 2, then good rows": Shape(
        lambda: filled(b"5,6,a\n", head="1,2,a\n3,4,é\n".encode("latin-1")),
        r"^this is not a text CSV file: row 2 is not UTF-8 text", 2, 12),
}
