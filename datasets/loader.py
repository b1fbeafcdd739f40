"""Read the user's own 2-D points from a CSV file into a :class:`~datasets.Dataset`.

The file comes from a web page, so everything a spreadsheet, a text editor
or ``np.savetxt`` may produce is accepted (a header or none; comma,
semicolon, tab or whitespace separators; Excel's ``sep=;`` first line; a
decimal comma in semicolon files; a BOM; CRLF; blank lines), and everything
else is refused with one :class:`ValueError` that names the row (its line
number in the file, as an editor shows it) or the column, and says what is
expected.

A file with more than three columns, or a label column with more than two
classes, is a :class:`Table`: which two columns are x1 and x2, which is the
label and which two classes (or one class against the rest) become the
data set is a choice, with defaults (see :func:`read_table`).

The file is read a row at a time (:mod:`datasets.dialect`) and refused at
the first row that cannot be used, or at row :data:`MAX_ROWS` + 1: a file
refused at row 1 costs what reading row 1 costs, whatever follows it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import BinaryIO

import numpy as np

from datasets.cells import (
    MAX_CLASSES,
    MAX_LABEL,
    Classes,
    all_numbers,
    can_label,
    class_list,
    coordinate,
    label_text,
    number,
    show,
)
from datasets.dataset import Dataset
from datasets.dialect import MAX_BYTES, Text, read_capped, records, sniff
from datasets.sheets import to_csv
from datasets.text import clean_name

__all__ = ["DEFAULT_NAME", "MAX_BYTES", "MAX_CLASSES", "MAX_COLUMNS", "MAX_LABEL", "MAX_ROWS",
           "REST", "Table", "load_csv", "read_table"]

MAX_ROWS = 20_000
MAX_COLUMNS = 100  # more columns than anyone chooses two from
DEFAULT_NAME = "Your data"
# The second of ``classes=(name, REST)``: one class against all the others. A
# control character cannot be in a class name, so no class is called this.
REST = "\x00rest"

_EXPECTED_COLUMNS = "expected at least 3: x1, x2, label"

# Header names that can only mean the label. "y" and "t" are also the second
# coordinate in the usual "x, y" naming, so they decide only when the other
# two columns are named as the coordinates (x1, x2).
_LABEL_NAMES = ("label", "labels", "class", "classes", "target", "category", "species")
_WEAK_LABEL_NAMES = ("y", "t")
_COORDINATE_PAIRS = ({"x1", "x2"}, {"x_1", "x_2"}, {"x0", "x1"})
# Columns a spreadsheet or pandas adds that are not measurements.
_INDEX_NAMES = ("", "id", "index", "unnamed: 0", "row")
# Coordinates' names that add nothing to x₁ and x₂.
_PLAIN_COORDINATES = {"x", "y", "x1", "x2", "x_1", "x_2", "x0", "x₁", "x₂"}


@dataclass(frozen=True)
class Table:
    """A file read into named columns, before the choice of columns and classes.

    Attributes
    ----------
    name : str
        The data set's name (the file name without its extension, or
        ``"Your data"``).
    columns : tuple of str
        Each column's name: its header cell, or ``"column 3"`` without one.
    numeric : tuple of int
        The columns holding a finite number in every row: the choices for x1
        and x2.
    labels : tuple of int
        The columns that can be the label: no empty cell and from two to
        :data:`MAX_CLASSES` classes.
    x1, x2, label : int
        The default choice: the label column as :func:`read_table` explains,
        x1 and x2 the first two numeric columns other than it.
    """

    name: str
    columns: tuple[str, ...]
    numeric: tuple[int, ...]
    labels: tuple[int, ...]
    x1: int
    x2: int
    label: int
    _rows: tuple[int, ...]
    _cells: tuple[tuple[str, ...], ...]  # one tuple per column
    _decimal_comma: bool
    _titles: tuple[str, ...]  # "column 'x1'" or "column 3", for messages
    _memo: dict = field(default_factory=dict, compare=False, repr=False)  # label -> classes
    _headed: bool = False  # the file names its columns (a header row)

    def classes(self, label: int | None = None) -> tuple[str, ...]:
        """Return the classes of a label column, most frequent first.

        Parameters
        ----------
        label : int, optional
            The column; the default label column when omitted.

        Returns
        -------
        tuple of str
            Each class as first spelled in the file; ties in frequency keep
            the order of first appearance.

        Raises
        ------
        ValueError
            When the column has an empty cell, a missing value (``nan``), a
            label over :data:`MAX_LABEL` characters, one class only or more
            than :data:`MAX_CLASSES`.
        """
        label = self.label if label is None else label
        return tuple(spelling for spelling, _ in self._classes(label)[1])

    @property
    def is_plain(self) -> bool:
        """Whether there is nothing to choose: three columns and two classes."""
        return len(self.columns) == 3 and len(self.classes()) == 2

    def dataset(
        self,
        *,
        x1: int | None = None,
        x2: int | None = None,
        label: int | None = None,
        classes: tuple[str, str] | None = None,
        positive: str | None = None,
    ) -> Dataset:
        """Return the data set for a choice of columns and classes.

        Parameters
        ----------
        x1, x2, label : int, optional
            Column indices; the defaults are the table's.
        classes : (str, str), optional
            Two classes of the label column (as :meth:`classes` spells them),
            or ``(name, REST)`` for one class against all the others.
            Default: the two most frequent classes.
        positive : str, optional
            Which of two classes is class +1 (the student's choice); by
            default the larger label, as :func:`load_csv` says.

        Returns
        -------
        Dataset
            Only the rows of the chosen classes, in the file's order. Of two
            classes, the smaller label is class -1 (see :func:`load_csv`);
            one class against the rest is class +1, named as in the file,
            and the rest class -1, named ``"not <name>"``. When a choice was
            made, the name says which (``"iris: setosa vs versicolor"``).

        Raises
        ------
        ValueError
            Naming the row and column of a cell that is not a finite number,
            or the choice that is not possible.
        """
        x1 = self.x1 if x1 is None else x1
        x2 = self.x2 if x2 is None else x2
        label = self.label if label is None else label
        for which, index in (("x1", x1), ("x2", x2), ("label", label)):
            if not 0 <= index < len(self.columns):
                raise ValueError(f"{which}: there is no column {index + 1}")
        if len({x1, x2, label}) < 3:
            raise ValueError("x1, x2 and the label must be three different columns")
        hint = f" ({self._titles[label]} is the label)" if label != len(self.columns) - 1 else ""
        comma = self._decimal_comma
        # A row without a label is left out (notes() names it), its coordinates unread.
        labelled = [i for i, cell in enumerate(self._cells[label]) if label_text(cell)]
        X = np.array(
            [
                (
                    coordinate(self._cells[x1][i], self._rows[i], self._titles[x1], comma, hint),
                    coordinate(self._cells[x2][i], self._rows[i], self._titles[x2], comma, hint),
                )
                for i in labelled
            ],
            dtype=float,
        ).reshape(-1, 2)
        keys, found = self._classes(label)
        spellings = [spelling for spelling, _ in found]
        if classes is None:
            classes = (spellings[0], spellings[1])
        classes = tuple(classes)
        for name in classes:
            if name not in spellings and name != REST:
                raise ValueError(f"{self._titles[label]} has no class {show(name)}")
        if len(classes) != 2 or classes[0] == classes[1] or classes[0] == REST:
            raise ValueError("expected two different classes, or one class and the rest")

        row_keys = [keys[label_text(self._cells[label][i])] for i in labelled]
        if classes[1] == REST:
            names = (f"not {classes[0]}", classes[0])
            choice = f"{classes[0]} vs the rest"
            y = np.array([1.0 if key == keys[classes[0]] else -1.0 for key in row_keys])
        else:
            names = tuple(sorted(classes, key=keys.__getitem__))
            if positive is not None and positive in names and positive != names[1]:
                names = names[::-1]
            choice = f"{names[0]} vs {names[1]}"
            negative, positive = keys[names[0]], keys[names[1]]
            take = np.array([key in (negative, positive) for key in row_keys], dtype=bool)
            X = X[take]
            y = np.array([1.0 if key == positive else -1.0 for key in row_keys])[take]
        chosen = []
        if len(self.columns) != 3:
            chosen.append(f"{self.columns[x1]}, {self.columns[x2]}")
        if len(found) != 2:
            chosen.append(choice)
        name = f"{self.name} ({'; '.join(chosen)})" if chosen else self.name
        columns = (self.columns[x1], self.columns[x2]) if self._headed else None
        if columns is not None and {c.casefold() for c in columns} <= _PLAIN_COORDINATES:
            columns = None  # "x1, x2" or "x, y" say nothing x₁ and x₂ do not
        return Dataset(name=name, X=X, y=y, classes=names, columns=columns)

    def notes(self, label: int | None = None) -> tuple[str, ...]:
        """What to tell the student of how a label column was read.

        Parameters
        ----------
        label : int, optional
            The column; the default label column when omitted.

        Returns
        -------
        tuple of str
            ``"'Yes' and 'yes' read as one class"`` for a class written in
            several cases, and the rows left out for an empty label (``"rows
            4 and 9 of column 'passed' have no label and are left out"``).

        Examples
        --------
        >>> for note in read_table(b"x,y,passed\\n1,2,Yes\\n3,4,yes\\n5,6,no\\n7,8,\\n").notes():
        ...     print(note)
        'Yes' and 'yes' read as one class
        row 5 of column 'passed' has no label and is left out
        """
        label = self.label if label is None else label
        self._classes(label)
        return tuple(self._memo[label][2].notes())

    def _classes(self, label: int) -> tuple[dict, list[tuple[str, int]]]:
        """Return each label's class key and the classes (name, count), most frequent first."""
        if label not in self._memo:
            self._memo[label] = class_list(self._cells[label], self._rows, self._titles[label],
                                           self._decimal_comma)
        return self._memo[label][:2]


def load_csv(
    source: str | os.PathLike[str] | bytes | BinaryIO,
    *,
    x1: int | None = None,
    x2: int | None = None,
    label: int | None = None,
    classes: tuple[str, str] | None = None,
    positive: str | None = None,
) -> Dataset:
    """Read 2-D labelled points from a CSV file.

    The usual file has three columns: two coordinates and a label. A header
    row is optional; it is recognised because its cells are not numbers
    where the next row's are. Cells may be separated by commas, semicolons
    (which also allow a decimal comma, ``1,5;2,25;1``), tabs or runs of
    spaces (``np.savetxt``'s format, where ``#`` starts a comment and a
    comment line just above the data may name the columns); an Excel first
    line ``sep=;`` names the separator. The file is UTF-8 text with or
    without a BOM, with LF or CRLF line endings. Blank lines, rows of empty
    cells, a column that is empty in every row, and whitespace around cells
    are ignored; so is a row whose label is empty.

    Parameters
    ----------
    source : str, path-like, bytes or binary file-like
        A path, the file's bytes, or a binary file object (for example
        ``io.BytesIO`` or Streamlit's ``UploadedFile``), read from its
        current position. At most :data:`MAX_BYTES` bytes are ever read.
    x1, x2, label, classes, positive : optional
        The choice of columns and classes for a wider file or a label with
        more than two classes, and of class +1, as in :meth:`Table.dataset`;
        the defaults are :func:`read_table`'s.

    Returns
    -------
    Dataset
        ``name`` is the file name without its extension when known (a path,
        or a file object's ``name``), else ``"Your data"``, followed by the
        choice when there was one; ``X`` has shape (N, 2); ``y`` is in
        {-1, +1}; ``classes`` holds the labels as first written in the file
        for class -1 and class +1.

    Raises
    ------
    ValueError
        With a message naming the row or column and what is expected: the
        file is empty, binary, too large (over :data:`MAX_BYTES` bytes or
        :data:`MAX_ROWS` data rows), has fewer than three columns or more
        than :data:`MAX_COLUMNS`, a ragged row, an empty cell, a coordinate
        that is not a finite number, one class only, or a label column with
        more than :data:`MAX_CLASSES`. Rows are checked in the file's order
        and the first bad one is named; reading stops there.
    TypeError
        When ``source`` is none of the accepted kinds, or a file opened in
        text mode.
    OSError
        When a path cannot be read.

    Notes
    -----
    The label column of a three-column file is the last one, whatever its
    header says, unless the header is unambiguous: exactly one column is
    named ``label``, ``class``, ``target``, ``category`` or ``species``
    (any case), or the other two are named ``x1`` and ``x2`` (then ``y`` or
    ``t`` is the label). So ``x,y,out`` and ``x,y,result`` read their last
    column as the label, and ``label,x,y`` and ``y,x1,x2`` their first.

    Labels become classes by one rule: the smaller of the two labels is
    class -1 and the larger is class +1. Numbers compare by value (so -1/+1
    keeps its meaning, 0 is class -1 against 1, and ``1``, ``+1`` and
    ``1.0`` are the same label); ``false``/``true`` (any case) compare as
    false < true; any other two labels compare as strings, in Python's
    sorted order (case-sensitive, so ``"Dog" < "cat"``); ``positive``
    names class +1 instead. Words that differ only in case (``Yes``,
    ``yes``, ``YES``) are one class, named as most of its rows write it, and
    a row whose label is empty is left out (:meth:`Table.notes` says both).
    Control and
    bidi-override characters are dropped from labels, and a leading ``'``
    before ``=``, ``+``, ``-``, ``@`` or ``'`` (a spreadsheet's mark for
    "text, not a formula", which :func:`datasets.editing.to_csv` writes) is
    removed.

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
    return read_table(source).dataset(x1=x1, x2=x2, label=label, classes=classes,
                                      positive=positive)


def read_table(source: str | os.PathLike[str] | bytes | BinaryIO, *,
               sheet: str | None = None) -> Table:
    """Read a file of any number of columns into a :class:`Table`.

    Parameters
    ----------
    source : str, path-like, bytes or binary file-like
        As for :func:`load_csv`; or a spreadsheet workbook (.xlsx, .ods), known by its
        bytes whatever its name, whose sheet is read as its CSV would be
        (:mod:`datasets.sheets`, with the same limits).
    sheet : str, optional
        The workbook's sheet; the first by default.

    Returns
    -------
    Table
        With the default choice: the label is the column named as a label
        when exactly one is (``label``, ``class``, ``target``, ``category``,
        ``species``), else the last column (the last one that can be a
        label, in a wider file whose last column cannot); x1 and x2 are the
        first two numeric columns other than the label, passing over an
        index column (an empty header, ``id``, ``index``) when there are
        enough others.

    Raises
    ------
    ValueError, TypeError, OSError
        As for :func:`load_csv`, for what does not depend on the choice. In
        a file of three columns, whose choice is made, at the first row
        whose coordinates or label cannot be read.
    """
    content, stem = read_capped(source)
    content, sheet_name = to_csv(content, sheet)
    if sheet_name is None:
        return _read_text(content, stem)
    try:
        return _read_text(content, stem, delimiter=";")  # as datasets.sheets writes it
    except ValueError as error:
        raise ValueError(f"sheet {sheet_name!r}: {error}") from None


def _read_text(content: bytes, stem: str, *, delimiter: str | None = None) -> Table:
    """:func:`read_table` of CSV bytes (the separator sniffed unless given)."""
    text = Text(content)
    if delimiter is None:
        delimiter, sep_row = sniff(text)
    else:
        sep_row = None
    decimal_comma = delimiter == ";"
    rows = _with_cells(records(text, delimiter, skip=sep_row))
    first = next(rows, None)
    if first is None:  # only empty quoted cells
        raise ValueError("the file is empty")
    second = next(rows, None)
    head = [first] if second is None else [first, second]
    header = _header(head, decimal_comma)
    first_row, first_cells = first
    width = len(first_cells)
    if width < 3:
        raise ValueError(_column_count_message(first_row, first_cells, header is not None))
    if width - (not first_cells[-1]) > MAX_COLUMNS:  # one more if it may be a trailing separator
        where = f"the header (row {first_row})" if header else f"row {first_row}"
        raise ValueError(f"{where} has {width} columns; the limit is {MAX_COLUMNS}")
    titles = list(header[1]) if header else [""] * width
    numbers, table = _read_rows(chain(head[1:] if header else head, rows), titles, decimal_comma)
    if not table:
        raise ValueError(f"the file has a header (row {first_row}) but no data rows")

    columns = list(zip(*table, strict=True))  # every row has the same width
    # A separator at the end of every line makes a last column of nothing: not a column.
    if not titles[-1] and not any(columns[-1]):
        columns, titles = columns[:-1], titles[:-1]
        width -= 1
        if width < 3:
            raise ValueError(
                _column_count_message(first_row, first_cells[:-1], header is not None)
            )
    message_titles = _message_titles(titles)
    numeric = tuple(i for i in range(width) if all_numbers(columns[i], decimal_comma))
    labels = [i for i in range(width) if can_label(columns[i], decimal_comma)]

    label = _label_index([title.lower() for title in titles])
    if width > 3 and label not in labels:
        # The last column that can be a label, a named one before a number.
        label = next((i for i in reversed(labels) if i not in numeric), labels[-1] if labels
                     else label)
    others = [i for i in range(width) if i != label]
    candidates = [i for i in numeric if i != label]
    measured = [i for i in candidates if titles[i].lower() not in _INDEX_NAMES]
    picks = measured if len(measured) >= 2 else candidates
    if width == 3 or len(picks) < 2:
        picks = others  # dataset() then names the cell that is not a number
    return Table(
        name=clean_name(stem) or DEFAULT_NAME,
        columns=tuple(clean_name(title) or f"column {i + 1}" for i, title in enumerate(titles)),
        numeric=numeric,
        labels=tuple(labels),
        x1=picks[0],
        x2=picks[1],
        label=label,
        _rows=tuple(numbers),
        _cells=tuple(columns),
        _decimal_comma=decimal_comma,
        _titles=message_titles,
        _headed=header is not None,
    )


def _with_cells(rows: Iterable[tuple[int, list[str]]]) -> Iterator[tuple[int, list[str]]]:
    """The rows that hold a cell, passing over at most MAX_ROWS rows of empty cells (``"",""``)."""
    empty = 0
    for row in rows:
        if any(row[1]):
            yield row
            continue
        empty += 1
        if empty > MAX_ROWS:
            raise ValueError(f"more than {MAX_ROWS} rows; the limit is {MAX_ROWS}")


def _read_rows(
    rows: Iterable[tuple[int, list[str]]], titles: list[str], decimal_comma: bool
) -> tuple[list[int], list[list[str]]]:
    """Read the data rows as they come, refusing at the first that cannot be used.

    Every row has as many cells as the first, and there are at most
    MAX_ROWS. In a file of three columns each row is also checked as the
    default choice reads it (:class:`_DefaultChoice`). An untitled last
    column that is empty so far may turn out to be a trailing separator on
    every line, which is then no column: while it may, what depends on it
    waits (a three-column file would have two, so its errors wait; a
    four-column one would have three, so it is checked, and its first error
    waits to be told once the fourth column is known to be empty).

    Returns
    -------
    (list of int, list of list of str)
        Each data row's line number and its cells.
    """
    width = len(titles)
    maybe_trailing = not titles[-1]  # an untitled last column, empty in every row so far
    check = None
    if width == 3 or (width == 4 and maybe_trailing):
        check = _DefaultChoice(titles[:3], decimal_comma)
    waiting: ValueError | None = None
    numbers: list[int] = []
    table: list[list[str]] = []
    for row, cells in rows:
        if len(table) == MAX_ROWS:
            raise ValueError(f"more than {MAX_ROWS} rows; the limit is {MAX_ROWS}")
        if len(cells) != width:
            raise ValueError(f"row {row} has {len(cells)} cells, expected {width}")
        if maybe_trailing and cells[-1]:
            maybe_trailing = False
            if width == 4:
                check = waiting = None  # four columns: nothing is chosen yet
            elif waiting is not None:
                raise waiting
        if check is not None and waiting is None:
            try:
                check(row, cells)
            except ValueError as error:
                if not maybe_trailing:
                    raise
                waiting = error
        numbers.append(row)
        table.append(cells)
    if waiting is not None and width == 4:  # the fourth column was nothing: three columns
        raise waiting
    return numbers, table


class _DefaultChoice:
    """Checks a row of a three-column file as :meth:`Table.dataset` reads it by default."""

    def __init__(self, titles: list[str], decimal_comma: bool):
        self.label = _label_index([title.lower() for title in titles])
        self.x1, self.x2 = (i for i in range(3) if i != self.label)
        self.titles = _message_titles(titles)
        self.hint = f" ({self.titles[self.label]} is the label)" if self.label != 2 else ""
        self.decimal_comma = decimal_comma
        self.classes = Classes(self.titles[self.label], decimal_comma)

    def __call__(self, row: int, cells: list[str]) -> None:
        if not label_text(cells[self.label]):
            return  # left out: its coordinates are not read
        for i in (self.x1, self.x2):
            coordinate(cells[i], row, self.titles[i], self.decimal_comma, self.hint)
        self.classes.add(cells[self.label], row)


def _message_titles(titles: list[str]) -> tuple[str, ...]:
    """Each column as messages name it: "column 'x1'", or "column 3" without a header."""
    return tuple(f"column {title!r}" if title else f"column {i + 1}"
                 for i, title in enumerate(titles))


def _header(head: list[tuple[int, list[str]]], decimal_comma: bool) -> tuple | None:
    """Return the first row if it is a header row, else None (``head``: the first one or two).

    It is one when it has a cell that is not a number above a number in the
    next row, and no number above a number; a lone first row is a header
    when none of its cells is a number.
    """
    first = head[0][1]
    is_number = [number(cell, decimal_comma) is not None for cell in first]
    if len(head) > 1 and len(head[1][1]) == len(first):
        below = [number(cell, decimal_comma) is not None for cell in head[1][1]]
        named = any(cell and not upper and under
                    for cell, upper, under in zip(first, is_number, below, strict=True))
        numbered = any(upper and under for upper, under in zip(is_number, below, strict=True))
        return head[0] if named and not numbered else None
    return head[0] if any(first) and not any(is_number) else None


def _column_count_message(row: int, cells: list[str], has_header: bool) -> str:
    """Return the message for a first row with fewer than three cells."""
    count = f"{len(cells)} column{'s' if len(cells) != 1 else ''}"
    if has_header:
        names = ", ".join(repr(cell) for cell in cells[:6]) + (", ..." if len(cells) > 6 else "")
        message = f"the header (row {row}) has {count} ({names}); {_EXPECTED_COLUMNS}"
    else:
        message = f"row {row} has {count}; {_EXPECTED_COLUMNS}"
    if len(cells) == 1:
        message += " (separate the cells with commas, semicolons, tabs or spaces)"
    return message


def _label_index(header: list[str]) -> int:
    """Return the label column a header names unambiguously, else the last column."""
    found = [i for i, name in enumerate(header) if name in _LABEL_NAMES]
    if len(found) == 1:
        return found[0]
    if len(header) == 3 and not found:
        for i, name in enumerate(header):
            others = {other for j, other in enumerate(header) if j != i}
            if name in _WEAK_LABEL_NAMES and others in _COORDINATE_PAIRS:
                return i
    return len(header) - 1
