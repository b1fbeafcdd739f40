"""The page's JavaScript modules joined into one ES module, in the order their headers give.

Each module file begins with a header that says what it uses and what it offers::

    // @uses ../format.js ../exact.js
    // @provides exactScores, turnOf

``@uses`` names the modules (paths relative to the file, as an ES ``import`` would) whose
names this one uses; ``@provides`` names what it offers the others and its tests (the names it
marks ``export``). Either line is left out when it would be empty; a long one goes on in
another line of its kind. A component's script is its entry modules and everything they use,
each module after the ones it uses (a topological sort), joined into one module: the
component loader runs one inline module, where a relative ``import`` cannot be fetched (so the
joined text keeps no ``export`` but the default one).
tests/test_js_modules.py holds the headers to the code (each name a module takes from another
is provided by a module it declares) and has node read each file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_HEADER = re.compile(r"^// @(uses|provides)\b(.*)$")
_EXPORT = re.compile(r"^export (?!default)", re.M)


@dataclass(frozen=True)
class Header:
    """One module's header: the files it uses and the names it provides."""

    uses: tuple[Path, ...]
    provides: tuple[str, ...]


def header(path: Path) -> Header:
    """The ``@uses`` and ``@provides`` lines at the top of a module, before any other line
    (a long list goes on over several lines of the same kind)."""
    found = {"uses": "", "provides": ""}
    for line in path.read_text().splitlines():
        match = _HEADER.match(line)
        if not match:
            break
        kind, rest = match.groups()
        found[kind] += f" {rest}"
    uses = tuple((path.parent / name).resolve() for name in found["uses"].split())
    provides = tuple(name for name in re.split(r"[\s,]+", found["provides"]) if name)
    return Header(uses, provides)


def order(entries: Iterable[Path]) -> list[Path]:
    """The entries and every module they use, each after the modules it uses; entries that
    do not use each other keep the order given (a layer's order is its drawing order).

    Raises
    ------
    ValueError
        A module that uses a file that does not exist, or modules that use each other in a
        circle (named in order).
    """
    done: list[Path] = []
    path_to: list[Path] = []

    def visit(path: Path, user: Path | None) -> None:
        if path in done:
            return
        if path in path_to:
            circle = [*path_to[path_to.index(path):], path]
            raise ValueError("the page's modules use each other in a circle: "
                             + " -> ".join(p.name for p in circle))
        if not path.is_file():
            raise ValueError(f"{user.name if user else 'the script'} uses {path.name}, "
                             f"which is not a file ({path})")
        path_to.append(path)
        for used in header(path).uses:
            visit(used, path)
        path_to.pop()
        done.append(path)

    for entry in entries:
        visit(Path(entry).resolve(), None)
    return done


def join(paths: Iterable[Path]) -> str:
    """These modules, already in order, as one ES module: each ``export`` but the default
    one dropped (joined, the names share one scope)."""
    return "\n".join(_EXPORT.sub("", Path(path).read_text()) for path in paths)
