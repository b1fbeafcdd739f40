"""The lock (requirements-lock.txt) pins what the ranges of requirements*.txt allow.

The test command installs requirements-dev.txt with the lock as pip's constraints, so a lock that
pins a version outside a range, or forgets a package the ranges name, would make pip fail on a
fresh machine or test other versions than users get. scripts/lock.sh refreshes the lock.
"""

from __future__ import annotations

from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.apptest import ROOT

LOCK = ROOT / "requirements-lock.txt"
TOP = ROOT / "requirements-dev.txt"


def requirements(path: Path) -> list[Requirement]:
    """Every requirement of a requirements file, following its `-r` includes."""
    found = []
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            found += requirements(path.parent / line[3:].strip())
        else:
            found.append(Requirement(line))
    return found


def pins(text: str) -> dict[str, Version]:
    """The lock's `name==version` lines by canonical name; anything else is an error."""
    pinned = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        if not sep or not version or any(c in version for c in "<>=!~*,; "):
            raise ValueError(f"requirements-lock.txt line {number}: {raw!r} is not name==version")
        pinned[canonicalize_name(name)] = Version(version)
    return pinned


def disagreements(wanted: list[Requirement], pinned: dict[str, Version]) -> list[str]:
    """A sentence for each requirement the lock leaves out or pins outside its range."""
    out = []
    for requirement in wanted:
        version = pinned.get(canonicalize_name(requirement.name))
        if version is None:
            out.append(f"{requirement.name} is not pinned")
        elif not requirement.specifier.contains(version, prereleases=True):
            out.append(f"{requirement.name}=={version} is outside {requirement.specifier}")
    return out


def test_the_lock_pins_every_package_the_tests_need_within_its_range():
    wanted = requirements(TOP)
    assert {r.name for r in wanted} >= {"streamlit", "pytest", "supervisor", "starlette"}
    assert disagreements(wanted, pins(LOCK.read_text())) == []


def test_a_lock_outside_a_range_or_missing_a_package_is_named():
    wanted = [Requirement("pytest>=8,<10"), Requirement("numpy>=1.26,<3"),
              Requirement("Scikit_Learn>=1.4")]
    pinned = pins("pytest==10.0.0\nscikit-learn==1.9.1\n")
    assert disagreements(wanted, pinned) == ["pytest==10.0.0 is outside <10,>=8",
                                             "numpy is not pinned"]


def test_a_lock_line_that_is_not_an_exact_pin_is_refused():
    for line in ("pytest>=9", "pytest", "pytest==9.*"):
        try:
            pins(line)
        except ValueError as error:
            assert "line 1" in str(error)
        else:
            raise AssertionError(f"{line!r} was taken as a pin")
