"""What a CSV cell means to the loader: a coordinate, or a label and the classes of a column.

Each function refuses with a :class:`ValueError` that names the row and the
column (``"row 7, column 'x2': 'abc' is not a number"``).
"""

from __future__ import annotations

import math
from collections import Counter

from datasets.text import clean_name

MAX_CLASSES = 100  # more different values than this is a measurement, not a label
MAX_LABEL = 100  # characters in one class name
_TRUE_FALSE = ("true", "false")


def number(cell: str, decimal_comma: bool) -> float | None:
    """Return the cell's value, or None when it is not written as a number."""
    if decimal_comma and "," in cell and "." not in cell:
        cell = cell.replace(",", ".", 1)
    if "_" in cell:  # float() would read "1_000"; no spreadsheet writes that
        return None
    try:
        return float(cell)
    except ValueError:
        return None


def all_numbers(cells: tuple[str, ...], decimal_comma: bool) -> bool:
    """Whether every cell is a finite number (as :func:`number` reads it).

    Each different cell is read once, all in one go by C code: a cell with
    a decimal comma and no point reads the same with every comma made a
    point, and any other cell with a comma is no number either way (two
    points, or a comma).
    """
    if not cells:
        return True
    joined = "\n".join(set(cells))  # a cell never holds a line break
    if "_" in joined:
        return False
    if decimal_comma:
        joined = joined.replace(",", ".")
    try:
        values = list(map(float, joined.split("\n")))
    except ValueError:
        return False
    return all(map(math.isfinite, values))


def show(cell: str) -> str:
    """Return the cell quoted for a message, shortened if long."""
    return repr(cell if len(cell) <= 30 else cell[:27] + "...")


def coordinate(cell: str, row: int, column: str, decimal_comma: bool, hint: str = "") -> float:
    """Return the cell as a finite float, or raise naming its row and column."""
    if not cell:
        raise ValueError(f"row {row}, {column} is empty")
    value = number(cell, decimal_comma)
    if value is None:
        if not decimal_comma and number(cell, decimal_comma=True) is not None:
            hint = " (a decimal comma is read only in files separated by semicolons)"
        raise ValueError(f"row {row}, {column}: {show(cell)} is not a number{hint}")
    if not math.isfinite(value):
        raise ValueError(f"row {row}, {column}: {show(cell)} is not a finite number")
    return value


def label_text(cell: str) -> str:
    """A label cell as its class name: cleaned, without a spreadsheet's "not a formula" mark."""
    text = clean_name(cell)
    if text[:1] == "'" and text[1:2] in ("=", "+", "-", "@", "'"):
        text = text[1:]
    return text


class Classes:
    """The classes of one label column, read a cell at a time in the file's order.

    Parameters
    ----------
    column : str
        The column as messages name it (``"column 'label'"``).
    decimal_comma : bool
        Whether ``1,5`` is a number.
    """

    def __init__(self, column: str, decimal_comma: bool):
        self.column = column
        self.decimal_comma = decimal_comma
        self._names: dict[str, str] = {}  # each spelling in the file -> its class name
        self._first_row: dict[str, int] = {}  # each class name -> the row it first appears in
        self._values: dict[str, float | None] = {}  # each class name -> its number, if one
        self._counts: Counter[str] = Counter()

    def add(self, cell: str, row: int) -> None:
        """Read the next row's label.

        Raises
        ------
        ValueError
            When the cell is empty, a missing value (``nan``), over
            :data:`MAX_LABEL` characters, or the column's ``10 *
            MAX_CLASSES + 1``-th different value.
        """
        text = self._names.get(cell)
        if text is None:
            text = self._names[cell] = label_text(cell)
        if text not in self._first_row:
            self._check_new(text, row)
            self._first_row[text] = row
        self._counts[text] += 1

    def _check_new(self, text: str, row: int) -> None:
        """Check a class name the first time it appears, in row ``row``."""
        if not text:
            raise ValueError(f"row {row}, {self.column} is empty")
        if len(text) > MAX_LABEL:
            raise ValueError(
                f"row {row}, {self.column}: {show(text)} is {len(text)} characters long; "
                f"a class name has at most {MAX_LABEL}"
            )
        if len(self._first_row) == 10 * MAX_CLASSES:  # enough to know it is not a label
            raise ValueError(
                f"{self.column} has more than {10 * MAX_CLASSES} different values: a label "
                f"column has 2 to {MAX_CLASSES} classes"
            )
        value = number(text, self.decimal_comma)
        if value is not None and not math.isfinite(value):
            raise ValueError(
                f"row {row}, {self.column}: {show(text)} is a missing value, not a class label"
            )
        self._values[text] = value

    def ranked(self) -> tuple[dict, list[tuple[str, int]]]:
        """Return each label's class key and the classes (first spelling, count), most frequent
        first.

        Keys order the classes by the smaller-is-minus-one rule: numbers by
        value, then false < true, else strings.

        Raises
        ------
        ValueError
            When there is one class only, or more than :data:`MAX_CLASSES`.
        """
        if all(value is not None for value in self._values.values()):
            keys = dict(self._values)
        elif all(label.lower() in _TRUE_FALSE for label in self._first_row):
            keys = {label: label.lower() for label in self._first_row}
        else:
            keys = {label: label for label in self._first_row}

        # The user's spelling of each class is the one it first appears with.
        spelling: dict = {}
        per_class: Counter = Counter()
        for label, key in keys.items():
            spelling.setdefault(key, label)
            per_class[key] += self._counts[label]
        if len(spelling) == 1:
            (only,) = spelling.values()
            raise ValueError(f"{self.column} has only one class ({only!r}): two classes are needed")
        if len(spelling) > MAX_CLASSES:
            raise ValueError(
                f"{self.column} has {len(spelling)} different values: a label column has 2 to "
                f"{MAX_CLASSES} classes"
            )
        order = {key: i for i, key in enumerate(spelling)}
        ranked = sorted(spelling, key=lambda key: (-per_class[key], order[key]))
        # Every spelling of a class maps to the key of its first spelling.
        return keys, [(spelling[key], per_class[key]) for key in ranked]


def class_list(
    cells: tuple[str, ...], rows: tuple[int, ...], column: str, decimal_comma: bool
) -> tuple[dict, list[tuple[str, int]]]:
    """Return :meth:`Classes.ranked` for a whole column, refusing at its first bad row."""
    classes = Classes(column, decimal_comma)
    for cell, row in zip(cells, rows, strict=True):
        classes.add(cell, row)
    return classes.ranked()


def can_label(cells: tuple[str, ...], decimal_comma: bool) -> bool:
    """Whether :func:`class_list` accepts the column.

    Each different cell is looked at once, and the answer is no as soon as
    more than :data:`MAX_CLASSES` classes are certain (different numbers and
    different words are different classes however the column's labels are
    ordered), so a column of measurements costs about a hundred cells.
    """
    texts: set[str] = set()
    values: set[float] = set()
    words: set[str] = set()  # labels that are not numbers, lowercased
    for cell in set(cells):
        text = label_text(cell)
        if not text or len(text) > MAX_LABEL:
            return False
        if text in texts:
            continue
        texts.add(text)
        if len(texts) > 10 * MAX_CLASSES:
            return False
        value = number(text, decimal_comma)
        if value is None:
            words.add(text.lower())
        elif not math.isfinite(value):
            return False
        else:
            values.add(value)
        if len(values) + len(words) > MAX_CLASSES:
            return False
    if not words:
        count = len(values)
    elif not values and words <= set(_TRUE_FALSE):
        count = len(words)
    else:
        count = len(texts)
    return 2 <= count <= MAX_CLASSES
