"""Numbers and vectors written as the pages write them, in their LaTeX and their text."""

from __future__ import annotations


def num(value: float) -> str:
    """A number as a student would write it: 0.35, not 0.35000000000000003."""
    value = float(value)
    if value == 0:
        return "0"
    text = f"{round(value, 10):.6g}"
    return text.replace("e+0", "e").replace("e-0", "e-")


def labelled(y: float, classes) -> str:
    """A label y with its class's name, where the name says more than y does.

    >>> labelled(-1, ("setosa", "versicolor")), labelled(1, ("-1", "+1")), labelled(-1, ("0", "1"))
    ('-1 (setosa)', '1', '-1 (0)')
    """
    value = num(y)
    name = str(classes[0 if y < 0 else 1])
    return value if name in (value, f"+{value}") else f"{value} ({name})"


def vec(values) -> str:
    """A vector as a LaTeX tuple."""
    return r"\left(" + ",\\ ".join(num(v) for v in values) + r"\right)"


def signed(value: float) -> str:
    """A term with its sign, for sums written out: + 0.2 or - 0.1."""
    return f"- {num(-value)}" if value < 0 else f"+ {num(value)}"


def share(count: int, total: int) -> str:
    """A count out of a total with its percentage, '3 / 60 (5.0 %)'; a dash when total is 0."""
    return f"{count} / {total} ({100 * count / total:.1f} %)" if total else "—"
