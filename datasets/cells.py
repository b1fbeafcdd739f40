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
        self.unlabelled: list[int] = []  # the rows whose label is empty, left out

    def add(self, cell: str, row: int) -> None:
        """Read the next row's label.

        An empty label leaves its row out of the data (:attr:`unlabelled`
        names it); it is not a class.

        Raises
        ------
        ValueError
            When the cell is a missing value (``nan``), over
            :data:`MAX_LABEL` characters, or the column's ``10 *
            MAX_CLASSES + 1``-th different value.
        """
        text = self._names.get(cell)
        if text is None:
            text = self._names[cell] = label_text(cell)
        if not text:
            self.unlabelled.append(row)
            return
        if text not in self._first_row:
            self._check_new(text, row)
            self._first_row[text] = row
        self._counts[text] += 1

    def _check_new(self, text: str, row: int) -> None:
        """Check a class name the first time it appears, in row ``row``."""
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
        """Return each label's class key and the classes (name, count), most frequent first.

        Keys order the classes by the smaller-is-minus-one rule: numbers by
        value, then false < true, else strings. Words that differ only in
        case are one class, named as most of its rows spell it (the first
        of equally many); a number is named as it is first written.

        Raises
        ------
        ValueError
            When there is one class only, or more than :data:`MAX_CLASSES`.
        """
        words = not all(value is not None for value in self._values.values())
        if not words:
            keys = dict(self._values)
        else:
            # One class per word whatever its case, keyed by its name (as most rows spell it).
            named: dict[str, str] = {}
            for label in self._first_row:  # in order of first appearance
                fold = label.casefold()
                best = named.get(fold)
                if best is None or self._counts[label] > self._counts[best]:
                    named[fold] = label
            if all(label.lower() in _TRUE_FALSE for label in self._first_row):
                keys = {label: label.lower() for label in self._first_row}
            else:
                keys = {label: named[label.casefold()] for label in self._first_row}

        spelling: dict = {}
        per_class: Counter = Counter()
        for label, key in keys.items():
            spelling.setdefault(key, named[label.casefold()] if words else label)
            per_class[key] += self._counts[label]
        if not spelling:
            raise ValueError(f"{self.column} has no labels: every row's label is empty")
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
        return keys, [(spelling[key], per_class[key]) for key in ranked]

    def notes(self) -> list[str]:
        """What the student should know of how the labels were read, each said once.

        Returns
        -------
        list of str
            ``"'Yes' and 'yes' read as one class"`` for each class written in
            several cases (most rows' spelling first), and the rows left out
            for an empty label.
        """
        said = []
        if not all(value is not None for value in self._values.values()):
            spellings: dict[str, list[str]] = {}
            for label in self._first_row:
                spellings.setdefault(label.casefold(), []).append(label)
            for group in spellings.values():
                if len(group) > 1:
                    group.sort(key=lambda label: -self._counts[label])  # stable: first seen first
                    names = [repr(label) for label in group]
                    listed = (" and ".join(names) if len(names) == 2
                              else ", ".join(names[:-1]) + " and " + names[-1])
                    said.append(f"{listed} read as one class")
        if self.unlabelled:
            said.append(f"{_rows(self.unlabelled)} of {self.column} "
                        f"{'has' if len(self.unlabelled) == 1 else 'have'} no label and "
                        f"{'is' if len(self.unlabelled) == 1 else 'are'} left out")
        return said


def _rows(rows: list[int]) -> str:
    """'row 4', 'rows 4 and 9', 'rows 4, 9, 12 and 3 more'."""
    if len(rows) == 1:
        return f"row {rows[0]}"
    shown = [str(row) for row in rows[:5]]
    if len(rows) > 5:
        return f"rows {', '.join(shown)} and {len(rows) - 5} more"
    return f"rows {', '.join(shown[:-1])} and {shown[-1]}"


def class_list(
    cells: tuple[str, ...], rows: tuple[int, ...], column: str, decimal_comma: bool
) -> tuple[dict, list[tuple[str, int]], Classes]:
    """Return :meth:`Classes.ranked` for a whole column, and the column's :class:`Classes`."""
    classes = Classes(column, decimal_comma)
    for cell, row in zip(cells, rows, strict=True):
        classes.add(cell, row)
    return (*classes.ranked(), classes)


def can_label(cells: tuple[str, ...], decimal_comma: bool) -> bool:
    """Whether :func:`class_list` accepts the column.

    Each different cell is looked at once, and the answer is no as soon as
    more than :data:`MAX_CLASSES` classes are certain (different numbers and
    different words are different classes however the column's labels are
    ordered), so a column of measurements costs about a hundred cells.
    """
    texts: set[str] = set()
    labelled = False
    values: set[float] = set()
    words: set[str] = set()  # labels that are not numbers, lowercased
    for cell in set(cells):
        text = label_text(cell)
        if not text:
            continue  # a row without a label is left out
        if len(text) > MAX_LABEL:
            return False
        labelled = True
        if text in texts:
            continue
        texts.add(text)
        if len(texts) > 10 * MAX_CLASSES:
            return False
        value = number(text, decimal_comma)
        if value is None:
            words.add(text.casefold())
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
        count = len({text.casefold() for text in texts})
    return labelled and 2 <= count <= MAX_CLASSES
