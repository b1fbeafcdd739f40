"""The house rules of the layout: core, datasets, viz and classroom stand without Streamlit,
and so does each lesson's figures.py; their examples run with the tests."""

from __future__ import annotations

import ast
import subprocess
import sys

from tests.apptest import ROOT

LAYERS = ("core", "datasets", "viz", "classroom")


def test_core_datasets_viz_and_classroom_never_import_streamlit():
    modules = [f"{layer}.{path.stem}" for layer in LAYERS
               for path in sorted((ROOT / layer).glob("*.py")) if path.stem != "__init__"]
    script = ("import importlib, sys\n"
              f"for name in {modules!r}:\n"
              "    importlib.import_module(name)\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] == 'streamlit'))\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert len(modules) > 20
    assert out.strip() == "[]"


def test_a_lessons_figures_never_import_streamlit():
    # each figures.py is loaded from its file alone: its package's __init__ draws the page and
    # imports Streamlit, the figures and what they import must not
    files = sorted((ROOT / "lessons").glob("*/figures.py"))
    script = ("import importlib.util as util, sys\n"
              f"for k, path in enumerate({[str(f) for f in files]!r}):\n"
              "    spec = util.spec_from_file_location(f'figures_{k}', path)\n"
              "    spec.loader.exec_module(util.module_from_spec(spec))\n"
              "print(sorted(m for m in sys.modules\n"
              "             if m.split('.')[0] in ('streamlit', 'lessons')))\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert len(files) >= 7
    assert out.strip() == "[]"


def test_the_test_command_runs_the_doctests_of_every_layer():
    # read as text, line by line: what is checked is how the lines are written
    lines = (ROOT / "pyproject.toml").read_text().splitlines()
    addopts = next(line for line in lines if line.startswith("addopts"))
    testpaths = next(line for line in lines if line.startswith("testpaths"))
    assert "--doctest-modules" in addopts
    assert all(f'"{layer}"' in testpaths for layer in LAYERS)
    assert '"lessons"' in testpaths


def imported(folder: str) -> dict[str, set[str]]:
    """The top-level packages each module of ``folder`` imports, anywhere in it (a function's
    own import too)."""
    found = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_bench_and_scripts_share_the_tests_helpers_through_testkit_only():
    # testkit/ is the one home of what tests/, bench/ and scripts/ share; it stands on its own
    for folder, never in (("bench", {"tests", "scripts"}), ("scripts", {"tests", "bench"}),
                          ("testkit", {"tests", "bench", "scripts"})):
        modules = imported(folder)
        assert modules
        assert {path: names & never for path, names in modules.items() if names & never} == {}
    assert {"testkit"} <= set().union(*imported("bench").values())


def test_the_import_check_sees_an_import_inside_a_function(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    from tests.apptest import switch\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert imported("pkg") == {"pkg/a.py": {"tests"}}
