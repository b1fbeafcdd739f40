"""The shape of the house: no import circle anywhere, ui/ only what lessons share, one place
that draws charts, and every lesson's page opening its Lesson first."""

from __future__ import annotations

import ast
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "datasets", "viz", "classroom", "ui", "lessons")
# Circles allowed for now, each cut before the search (none: keep it so).
KNOWN_CIRCLES: list[list[str]] = []


def modules(root: Path, packages=PACKAGES) -> dict[str, Path]:
    """Every module of the packages under ``root``, by its dotted name (a package by its own
    name, for its ``__init__.py``)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` (its file ``path``) imports anywhere: at
    the top, in functions, for types.

    ``from a.b import c`` imports the module a.b.c when there is one, else a.b (c is a name in
    it); relative imports count from the module's package. A package a module lives in runs
    first, but is not counted as imported: its ``__init__`` may import the module itself.
    """
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from . import x, from ..a import b
                base = ".".join([*package[:len(package) - node.level + 1], *filter(None, [base])])
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                     for alias in node.names]
        else:
            continue
        for imported in names:
            while imported and imported not in known:  # import a.b.c: the deepest module known
                imported = imported.rpartition(".")[0]
            if imported:
                found.add(imported)
    return found - {name}


def import_graph(root: Path = ROOT, packages=PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules of the packages it imports, over every package at once."""
    files = modules(root, packages)
    return {name: imports_of(name, path, set(files)) for name, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a list of nodes (first == last), or None (depth-first search)."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return [*path[path.index(target):], target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        state[node] = "done"
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_cycle_search_finds_a_cycle_and_only_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_a_circle_through_packages_functions_and_relative_imports_is_found(tmp_path):
    write(tmp_path, {
        "core/__init__.py": "",
        "core/a.py": "def f():\n    from core.b import g\n",  # in a function
        "core/b.py": "from . import c\n",  # relative
        "core/c.py": "import ui.d\n",  # into another package
        "ui/__init__.py": "",
        "ui/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from core import a\n",
    })
    graph = import_graph(tmp_path, ("core", "ui"))
    assert graph["core.b"] == {"core.c"} and graph["ui.d"] == {"core.a"}
    assert find_cycle(graph) == ["core.a", "core.b", "core.c", "ui.d", "core.a"]
    write(tmp_path, {"ui/d.py": "from core.a import f\n"})  # a name in a module: the module
    assert find_cycle(import_graph(tmp_path, ("core", "ui"))) is not None
    write(tmp_path, {"ui/d.py": "import numpy\n"})
    assert find_cycle(import_graph(tmp_path, ("core", "ui"))) is None


def test_a_package_imported_by_its_module_counts_and_the_parent_it_runs_first_does_not(tmp_path):
    write(tmp_path, {
        "lessons/__init__.py": "",
        "lessons/x/__init__.py": "from lessons.x.parts import PARTS\n",
        "lessons/x/parts.py": "from lessons import link\n",
    })
    graph = import_graph(tmp_path, ("lessons",))
    assert graph == {"lessons": set(), "lessons.x": {"lessons.x.parts"},
                     "lessons.x.parts": {"lessons"}}
    assert find_cycle(graph) is None


def test_no_import_circle_anywhere_in_the_house():
    graph = import_graph()
    assert {name.split(".")[0] for name in graph} == set(PACKAGES)
    assert len(graph) > 60  # the walk saw every package, lessons' parts included
    assert "lessons.margin.parts" in graph["lessons.margin"]
    for known in KNOWN_CIRCLES:  # each is still there (else it comes off the list): cut it
        assert all(b in graph[a] for a, b in pairwise(known)), known
        graph[known[0]] = graph[known[0]] - {known[1]}
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_ui_holds_only_what_two_lessons_share():
    graph = import_graph()
    # app.py runs around every lesson (a class, ui/classroom/): what it imports serves all
    graph["app"] = imports_of("app", ROOT / "app.py", set(graph))
    for module in (name for name in graph if name.startswith("ui.")):
        users = {name for name, targets in graph.items() if module in targets}
        lessons = {name.split(".")[1] for name in users if name.startswith("lessons.")}
        # used by ui itself (the Lesson every page opens), by the app around every page, or by
        # two lessons or more
        assert any(user.startswith("ui.") or user == "app" for user in users) \
            or len(lessons) >= 2, \
            f"{module} serves {lessons or 'nothing'} alone: it belongs in that lesson"


def test_viz_holds_only_what_two_lessons_share():
    # a lesson's own figures live in its package (lessons/<name>/figures.py)
    graph = import_graph()
    for module in (name for name in graph if name.startswith("viz.") and name != "viz"):
        users = {name for name, targets in graph.items() if module in targets}
        lessons = {name.split(".")[1] for name in users if name.startswith("lessons.")}
        assert any(user.startswith(("ui.", "viz.")) for user in users) or len(lessons) >= 2, \
            f"{module} serves {lessons or 'nothing'} alone: it belongs in that lesson"


def attribute_calls(path: Path, name: str) -> int:
    """How many times a file calls something's ``name`` (``st.plotly_chart``, ``st.stop``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sum(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr == name for node in ast.walk(tree))


def test_no_lesson_stops_the_run():
    # st.stop() stops every element after it, the class's strip too (drawn after the page):
    # a lesson that cannot go on says why with ui.lesson.cannot_go_on, which ends the page alone
    stopping = {path.relative_to(ROOT).as_posix()
                for path in (ROOT / "lessons").rglob("*.py") if attribute_calls(path, "stop")}
    assert stopping == set()


def test_no_page_brings_streamlits_own_plotly():
    # st.plotly_chart's chunk is Plotly's whole bundle, evaluated before a page's picture:
    # every chart goes through ui/chart.py's component and the page's own Plotly
    files = [ROOT / "app.py", *(ROOT / "lessons").rglob("*.py"), *(ROOT / "ui").glob("*.py")]
    drawing = {path.relative_to(ROOT).as_posix(): attribute_calls(path, "plotly_chart")
               for path in files}
    assert {name for name, count in drawing.items() if count} == set()


def test_every_page_opens_a_lesson_first():
    packages = [path for path in (ROOT / "lessons").iterdir() if (path / "__init__.py").is_file()]
    assert len(packages) >= 7
    for package in packages:
        tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
        page = next(node for node in tree.body
                    if isinstance(node, ast.FunctionDef) and node.name == "page")
        body = page.body[1:] if ast.get_docstring(page) else page.body
        # nothing draws before it: the page's first statement makes its Lesson
        first = body[0]
        assert isinstance(first, ast.Assign) and isinstance(first.value, ast.Call), package.name
        assert getattr(first.value.func, "id", None) == "Lesson", package.name


MAX_UI_LINES = 400


def long_modules(root: Path = ROOT, most: int = MAX_UI_LINES) -> dict[str, int]:
    """The modules under ``root``'s ui/ (Python and the page's JavaScript, its vendored
    bundles aside) over ``most`` lines, with their lengths."""
    files = [path for path in (root / "ui").rglob("*") if path.suffix in {".py", ".js"}
             and "vendor" not in path.relative_to(root).parts]
    lengths = {path.relative_to(root).as_posix(): len(path.read_text(encoding="utf-8")
                                                      .splitlines()) for path in files}
    return {name: lines for name, lines in lengths.items() if lines > most}


def test_the_size_check_sees_a_long_module_and_passes_the_vendored_bundle(tmp_path):
    write(tmp_path, {"ui/short.py": "x = 1\n" * 400, "ui/a/long.py": "x = 1\n" * 401,
                     "ui/a_assets/long.js": "x;\n" * 401,
                     "ui/a_assets/vendor/bundle.js": "x;\n" * 5000})
    assert long_modules(tmp_path) == {"ui/a/long.py": 401, "ui/a_assets/long.js": 401}


def test_no_module_in_ui_is_over_400_lines():
    # a module that long does several jobs: split it into a package of one job a module (as
    # ui/stepper/, ui/classroom/ and ui/lecture_plan/ are)
    assert long_modules() == {}
