"""Read the user's own 2-D points from a CSV file into a :class:`~datasets.Dataset`.

The file comes from a web page, so everything a spreadsheet or a text editor
may produce is accepted (a header or none; comma, semicolon or tab
separators; a decimal comma in semicolon files; a BOM; CRLF; blank lines),
and everything else is refused with one :class:`ValueError` that names the
row (its line number in the file, as an editor shows it) or the column, and
says what is expected.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np

from datasets import Dataset

MAX_BYTES = 2_000_000
MAX_ROWS = 20_000
DEFAULT_NAME = "Your data"

_EXPECTED_COLUMNS = "expected 3: x1, x2, label"

# "label", "class" and "target" can only mean the label; "y" and "t" are also
# the second coordinate in the usual "x, y" naming, so they give way to them.
_LABEL_NAMES = ("label", "class", "target")
_WEAK_LABEL_NAMES = ("y", "t")

# Tried in this order: a semicolon line may hold decimal commas, and a tab
# line may hold either, so the comma must come last.
_DELIMITERS = ("\t", ";", ",")

_MB = 1_000_000


def load_csv(source: str | os.PathLike[str] | bytes | BinaryIO) -> Dataset:
    """Read 2-D labelled points from a CSV file.

    The file has exactly three columns: two coordinates and a label. A
    header row is optional; it is recognised because its coordinate cells
    are not numbers. Cells may be separated by commas, semicolons (which
    also allow a decimal comma, ``1,5;2,25;1``) or tabs; the file is UTF-8
    text with or without a BOM, with LF or CRLF line endings. Blank lines,
    rows of empty cells and whitespace around cells are ignored.

    Parameters
    ----------
    source : str, path-like, bytes or binary file-like
        A path, the file's bytes, or a binary file object (for example
        ``io.BytesIO`` or Streamlit's ``UploadedFile``), read from its
        current position. At most :data:`MAX_BYTES` bytes are ever read.

    Returns
    -------
    Dataset
        ``name`` is the file name without its extension when known (a path,
        or a file object's ``name``), else ``"Your data"``; ``X`` has shape
        (N, 2); ``y`` is in {-1, +1}; ``classes`` holds the labels as first
        written in the file for class -1 and class +1.

    Raises
    ------
    ValueError
        With a message naming the row or column and what is expected: the
        file is empty, binary, too large (over :data:`MAX_BYTES` bytes or
        :data:`MAX_ROWS` data rows), has other than three columns, a ragged
        row, an empty cell, a coordinate that is not a finite number, or
        other than two classes.
    TypeError
        When ``source`` is none of the accepted kinds, or a file opened in
        text mode.
    OSError
        When a path cannot be read.

    Notes
    -----
    The label column is, with a header, the one named ``label``, ``class``
    or ``target`` (case-insensitive) if exactly one is; else the one named
    ``y`` or ``t`` if exactly one is; else the last column. So ``x1,x2,y``,
    ``x,y,label`` and ``label,x,y`` all read as expected. Without a header
    it is the last column.

    Labels become classes by one rule: the smaller of the two labels is
    class -1 and the larger is class +1. Numbers compare by value (so -1/+1
    keeps its meaning, 0 is class -1 against 1, and ``1``, ``+1`` and
    ``1.0`` are the same label); ``false``/``true`` (any case) compare as
    false < true; any other two labels compare as strings, in Python's
    sorted order (case-sensitive, so ``"Dog" < "cat"``).

    Examples
    --------
    >>> data = load_csv(b"x1,x2,label\\n0,1,dog\\n2,3,cat\\n")
    >>> data.X
    array([[0., 1.],
           [2., 3.]])
    >>> data.y
    array([ 1., -1.])
    >>> data.classes
    ('cat', 'dog')
    """
    content, name = _read_capped(source)
    text = _decode(content)
    first_line = next((line for line in _lines(text) if _has_content(line)), None)
    if first_line is None:
        raise ValueError("the file is empty")
    delimiter = _detect_delimiter(first_line)
    decimal_comma = delimiter == ";"

    records = _records(text, delimiter)
    first_record = next(records, None)
    if first_record is None:  # only empty quoted cells
        raise ValueError("the file is empty")
    first_row, first = first_record
    has_header = (
        len(first) >= 2
        and any(first[:2])
        and all(_number(cell, decimal_comma) is None for cell in first[:2])
    )
    if len(first) != 3:
        raise ValueError(_column_count_message(first_row, first, has_header))

    if has_header:
        columns = [
            f"column {title!r}" if title else f"column {i + 1}" for i, title in enumerate(first)
        ]
        label_index = _label_index(first)
    else:
        columns = [f"column {i + 1}" for i in range(3)]
        label_index = 2
        records = itertools.chain([(first_row, first)], records)
    x_index, y_index = (i for i in range(3) if i != label_index)
    # A label found by its name, not by its place, may surprise; say which it is.
    where_label = f" ({columns[label_index]} is the label)" if label_index != 2 else ""

    points: list[tuple[float, float]] = []
    labels: list[str] = []
    rows: list[int] = []
    for row, cells in records:
        if len(points) == MAX_ROWS:
            raise ValueError(f"more than {MAX_ROWS} rows; the limit is {MAX_ROWS}")
        if len(cells) != 3:
            raise ValueError(f"row {row} has {len(cells)} cells, expected 3")
        points.append(
            (
                _coordinate(cells[x_index], row, columns[x_index], decimal_comma, where_label),
                _coordinate(cells[y_index], row, columns[y_index], decimal_comma, where_label),
            )
        )
        if not cells[label_index]:
            raise ValueError(f"row {row}, {columns[label_index]} is empty")
        labels.append(cells[label_index])
        rows.append(row)
    if not points:
        raise ValueError(f"the file has a header (row {first_row}) but no data rows")

    y, classes = _classes(labels, rows, columns[label_index], decimal_comma)
    return Dataset(name=name, X=np.array(points, dtype=float), y=y, classes=classes)


def _read_capped(source: str | os.PathLike[str] | bytes | BinaryIO) -> tuple[bytes, str]:
    """Return the source's bytes and data set name; refuse an oversized source before reading it."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        _check_size(memoryview(source).nbytes)
        return bytes(source), DEFAULT_NAME
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        _check_size(os.stat(path).st_size)
        # The file may have grown since the stat, or be a pipe that reports 0.
        with open(path, "rb") as file:
            content = file.read(MAX_BYTES + 1)
        _check_size(len(content), known=False)
        return content, path.stem or DEFAULT_NAME
    if hasattr(source, "read"):
        size = _announced_size(source)
        if size is not None:
            _check_size(size)
        content = source.read(MAX_BYTES + 1)
        if isinstance(content, str):
            raise TypeError("open the file in binary mode ('rb'), not text mode")
        _check_size(len(content), known=False)
        file_name = getattr(source, "name", None)
        stem = Path(file_name).stem if isinstance(file_name, str) else ""
        return bytes(content), stem or DEFAULT_NAME
    raise TypeError(
        f"source must be a path, bytes or a binary file object, not {type(source).__name__}"
    )


def _announced_size(file: BinaryIO) -> int | None:
    """Return the bytes left in the file without reading them, or None if it cannot tell."""
    size = getattr(file, "size", None)  # Streamlit's UploadedFile knows it
    if isinstance(size, int) and not isinstance(size, bool):
        return size
    try:
        if file.seekable():
            here = file.tell()
            end = file.seek(0, os.SEEK_END)
            file.seek(here)
            return end - here
    except (AttributeError, OSError, ValueError):
        pass
    return None


def _check_size(size: int, *, known: bool = True) -> None:
    """Refuse a file over MAX_BYTES; ``known=False`` when only a capped read saw it."""
    if size <= MAX_BYTES:
        return
    limit = f"{MAX_BYTES / _MB:g} MB"
    # Rounded up, so a file just over the limit never reads as "2.0 MB".
    shown = f"{math.ceil(size / (_MB / 10)) / 10:.1f} MB" if known else f"more than {limit}"
    raise ValueError(f"the file is {shown}; the limit is {limit}")


def _decode(content: bytes) -> str:
    """Return the content as text, refusing anything that is not UTF-8 text."""
    if b"\x00" in content:
        raise ValueError(
            "this is not a text CSV file: it contains NUL bytes "
            "(save it from your spreadsheet as 'CSV UTF-8')"
        )
    content = content.removeprefix(codecs.BOM_UTF8)
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as error:
        row = content.count(b"\n", 0, error.start) + 1
        raise ValueError(
            f"this is not a text CSV file: row {row} is not UTF-8 text "
            "(save it from your spreadsheet as 'CSV UTF-8')"
        ) from None


def _lines(text: str) -> io.StringIO:
    """Return the text as a stream of physical lines, split only at CR, LF or CRLF."""
    # newline="" splits at exactly the line ends an editor counts, and leaves
    # them for the csv module; str.splitlines would also split at \f, \x1c...
    return io.StringIO(text, newline="")


def _has_content(line: str) -> bool:
    """Whether a raw line holds more than whitespace and separators."""
    return bool(line.strip().strip("".join(_DELIMITERS) + " "))


def _detect_delimiter(line: str) -> str:
    """Return the separator that splits the first row into three cells, else the first present."""
    line = line.rstrip("\r\n")
    for delimiter in _DELIMITERS:
        try:
            if len(next(csv.reader([line], delimiter=delimiter))) == 3:
                return delimiter
        except csv.Error:  # a cell over the csv module's size limit; _records reports it
            continue
    return next((d for d in _DELIMITERS if d in line), ",")


def _records(text: str, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number in the file, stripped cells) for every row that is not blank."""
    reader = csv.reader(_lines(text), delimiter=delimiter, skipinitialspace=True)
    row = 1
    try:
        for cells in reader:
            if reader.line_num != row or any("\n" in cell or "\r" in cell for cell in cells):
                # Numbers and labels never hold a line break: this is an unclosed quote.
                raise ValueError(
                    f'row {row}: a quoted cell runs past the end of the line; check its quotes (")'
                )
            stripped = [cell.strip() for cell in cells]
            if any(stripped):
                yield row, stripped
            row = reader.line_num + 1
    except csv.Error as error:
        raise ValueError(f"row {row} cannot be read as CSV: {error}") from None


def _column_count_message(row: int, cells: list[str], has_header: bool) -> str:
    """Return the message for a first row that does not have three cells."""
    count = f"{len(cells)} column{'s' if len(cells) != 1 else ''}"
    if has_header:
        names = ", ".join(repr(cell) for cell in cells[:6]) + (", ..." if len(cells) > 6 else "")
        message = f"the header (row {row}) has {count} ({names}); {_EXPECTED_COLUMNS}"
    else:
        message = f"row {row} has {count}; {_EXPECTED_COLUMNS}"
    if len(cells) == 1:
        message += " (separate the cells with commas, semicolons or tabs)"
    return message


def _label_index(header: list[str]) -> int:
    """Return the index of the label column named in a three-column header."""
    names = [name.lower() for name in header]
    for candidates in (_LABEL_NAMES, _WEAK_LABEL_NAMES):
        found = [i for i, name in enumerate(names) if name in candidates]
        if len(found) == 1:
            return found[0]
        if found:
            break
    return len(header) - 1


def _number(cell: str, decimal_comma: bool) -> float | None:
    """Return the cell's value, or None when it is not written as a number."""
    if decimal_comma and "," in cell and "." not in cell:
        cell = cell.replace(",", ".", 1)
    if "_" in cell:  # float() would read "1_000"; no spreadsheet writes that
        return None
    try:
        return float(cell)
    except ValueError:
        return None


def _show(cell: str) -> str:
    """Return the cell quoted for a message, shortened if long."""
    return repr(cell if len(cell) <= 30 else cell[:27] + "...")


def _coordinate(cell: str, row: int, column: str, decimal_comma: bool, hint: str = "") -> float:
    """Return the cell as a finite float, or raise naming its row and column."""
    if not cell:
        raise ValueError(f"row {row}, {column} is empty")
    value = _number(cell, decimal_comma)
    if value is None:
        if not decimal_comma and _number(cell, decimal_comma=True) is not None:
            hint = " (a decimal comma is read only in files separated by semicolons)"
        raise ValueError(f"row {row}, {column}: {_show(cell)} is not a number{hint}")
    if not math.isfinite(value):
        raise ValueError(f"row {row}, {column}: {_show(cell)} is not a finite number")
    return value


def _classes(
    labels: list[str], rows: list[int], column: str, decimal_comma: bool
) -> tuple[np.ndarray, tuple[str, str]]:
    """Map the labels to -1/+1 by the smaller-is-minus-one rule; return y and the class names."""
    first_row = {}
    for label, row in zip(labels, rows, strict=True):
        first_row.setdefault(label, row)
    values = {label: _number(label, decimal_comma) for label in first_row}
    for label, value in values.items():
        if value is not None and not math.isfinite(value):
            raise ValueError(
                f"row {first_row[label]}, {column}: {_show(label)} is a missing value, "
                "not a class label"
            )

    if all(value is not None for value in values.values()):
        key = values
    elif all(label.lower() in ("true", "false") for label in first_row):
        key = {label: label.lower() for label in first_row}
    else:
        key = {label: label for label in first_row}

    # The user's spelling of each class is the one it first appears with.
    spelling: dict = {}
    for label in first_row:
        spelling.setdefault(key[label], label)
    if len(spelling) == 1:
        (only,) = spelling.values()
        raise ValueError(f"{column} has only one class ({only!r}): two classes are needed")
    if len(spelling) > 2:
        third = list(spelling.values())[2]
        shown = [repr(spelling[k]) for k in sorted(spelling)]
        names = ", ".join(shown[:5] + (["..."] if len(shown) > 5 else []))
        raise ValueError(
            f"{column} has {len(spelling)} classes ({names}): exactly two are expected "
            f"(the third, {_show(third)}, first appears in row {first_row[third]})"
        )

    negative, positive = sorted(spelling)
    y = np.array([-1.0 if key[label] == negative else 1.0 for label in labels])
    return y, (spelling[negative], spelling[positive])
