"""The shape of ui/ and lessons/: no import cycles, one place that draws charts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ui", "viz")


def imports_of(path: Path, package: str) -> set[str]:
    """The modules of ``package`` a file imports anywhere: at the top, in functions, for types."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            # `from ui import url_state` imports the module ui.url_state
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found |= {name for name in names if name.startswith(f"{package}.")}
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (only those that are files)."""
    modules = {f"{package}.{p.stem}": p for p in (ROOT / package).glob("*.py")
               if p.stem != "__init__"}
    return {name: imports_of(path, package) & set(modules) - {name}
            for name, path in modules.items()}


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


def test_imports_inside_functions_and_from_the_package_count(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from ui import url_state\n"
                      "def f():\n    from ui.state import keep_alive\n    import ui.lecture\n")
    assert imports_of(module, "ui") >= {"ui.url_state", "ui.state", "ui.lecture"}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package):
    graph = import_graph(package)
    assert len(graph) > 3  # the walk saw the package
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def chart_calls(path: Path) -> int:
    """How many times a file calls something's ``plotly_chart``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sum(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr == "plotly_chart" for node in ast.walk(tree))


def test_one_module_draws_charts():
    files = [ROOT / "app.py", *(ROOT / "lessons").rglob("*.py"), *(ROOT / "ui").glob("*.py")]
    drawing = {path.relative_to(ROOT).as_posix(): chart_calls(path) for path in files}
    assert {name for name, count in drawing.items() if count} == {"ui/lesson.py"}
    assert drawing["ui/lesson.py"] == 1


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
