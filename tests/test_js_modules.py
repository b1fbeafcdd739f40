"""The page's JavaScript modules say at their top what they use and what they provide, and the
scripts are joined in the order those headers give (ui/js_modules.py): a module that uses a
name of another without declaring it, a declared module that is not a file, or two modules
that use each other, fail here rather than in a student's page."""

from __future__ import annotations

import re
import shutil
import subprocess
from itertools import takewhile
from pathlib import Path

import pytest

from tests.test_classroom_script import code_of, uses
from ui import classroom, js_modules, lecture_plan, stepper

NODE = shutil.which("node")
# the modules of the page's scripts: the stepper's and the chart's, which the JS tests load
# together (tests/browser/js), the class strip's and the lecture plan's
SCRIPTS = ([stepper.module_path(name).resolve() for name in stepper.JS_FILES],
           [classroom.module_path(name).resolve() for name in classroom.JS_MODULES],
           [path.resolve() for path in lecture_plan.JS_PATHS])
MODULES = sorted(set().union(*SCRIPTS))
TOP_LEVEL = re.compile(r"^(?:export )?(?:async )?(?:function\*?|class|const|let|var) (\w+)", re.M)
EXPORTED = re.compile(r"^export (?:async )?(?:function\*?|class|const|let|var) (\w+)", re.M)
BINDINGS = (
    re.compile(r"\b(?:const|let|var)\s+(\w+)"),  # a local variable
    re.compile(r"\b(?:const|let|var)\s+[{\[]([^=]*)[}\]]\s*="),  # destructured
    re.compile(r"\(([^()]*)\)\s*(?:=>|\{)"),  # parameters of a function, method or arrow
    re.compile(r"\b(\w+)\s*=>"),  # an arrow's one parameter
)


def own_names(text: str) -> set[str]:
    """Every name a module binds itself, at its top or inside (a local ``said`` is its own,
    whatever another module calls ``said``)."""
    code = code_of(text)
    return {name for pattern in BINDINGS for group in pattern.findall(code)
            for name in re.findall(r"[A-Za-z_$][\w$]*", group)}


def taken(path: Path, others: list[Path]) -> dict[Path, set[str]]:
    """The names ``path``'s code takes from each of ``others`` (any name one of them declares
    at its top that this module does not bind itself)."""
    text = path.read_text()
    own = own_names(text)
    found = {}
    for other in others:
        names = uses(text, set(TOP_LEVEL.findall(other.read_text())) - own)
        if names:
            found[other] = names
    return found


def module(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_every_module_has_its_header_at_its_top_and_nowhere_else():
    for path in MODULES:
        lines = path.read_text().splitlines()
        top = len(list(takewhile(
            lambda line: line.startswith(("// @uses", "// @provides")), lines)))
        later = [i + 1 for i, line in enumerate(lines) if "@uses" in line or "@provides" in line]
        assert later == list(range(1, top + 1)), f"{path.name}: header lines at {later}"


def test_each_module_provides_exactly_what_it_exports():
    for path in MODULES:
        assert sorted(js_modules.header(path).provides) == sorted(
            EXPORTED.findall(path.read_text())), path.name


def test_each_module_uses_names_only_of_the_modules_it_declares_and_uses_each_of_them():
    for path, others in ((path, script) for script in SCRIPTS for path in script):
        declared = js_modules.header(path).uses
        found = taken(path, [other for other in others if other != path])
        undeclared = {other.name: sorted(names) for other, names in found.items()
                      if other not in declared}
        assert undeclared == {}, f"{path.name} uses these without @uses: {undeclared}"
        unused = [other.name for other in declared if other not in found]
        assert unused == [], f"{path.name} declares @uses {unused} but uses none of its names"
        for other, names in found.items():
            hidden = names - set(js_modules.header(other).provides)
            assert hidden == set(), f"{path.name} uses {sorted(hidden)} of {other.name}"


def test_the_check_sees_a_name_taken_without_a_header_and_skips_a_local_of_the_same_name(
        tmp_path):
    maker = module(tmp_path, "a.js", "// @provides said\nexport const said = (v) => v;\n")
    local = module(tmp_path, "b.js", "function f(said) { return said; }\nconst g = () => {\n"
                   "  const said = 1;\n  return said;\n};\n")
    assert taken(local, [maker]) == {}
    user = module(tmp_path, "c.js", "function f(v) { return said(v); }\n")
    assert taken(user, [maker]) == {maker: {"said"}}


def test_each_module_is_joined_after_the_modules_it_uses():
    for names, path_of in ((stepper.JS_FILES, stepper.module_path),
                           ((*stepper.JS_MODULES, *stepper.JS_LAYERS), stepper.module_path),
                           (stepper.JS_CHART, stepper.module_path),
                           (classroom.JS_MODULES, classroom.module_path),
                           (lecture_plan.JS_PATHS, Path)):
        paths = [path_of(name).resolve() for name in names]
        for i, path in enumerate(paths):
            later = set(js_modules.header(path).uses) - set(paths[:i])
            assert later == set(), f"{path.name} is joined before {sorted(p.name for p in later)}"


def test_the_layers_are_joined_in_their_drawing_order_after_the_stepper():
    text = stepper.script()
    at = [text.index(f'name: "{name}"') for name in stepper.JS_LAYERS]
    assert at == sorted(at)
    assert text.index("const LAYERS = [];") < at[0]
    # the mount (the default export) after the stepper it mounts; grid.js is only the layers'
    assert stepper.JS_MODULES[-3:] == ("stepper", "mount", "grid")


def test_the_order_follows_the_headers_and_keeps_the_entries_order(tmp_path):
    a = module(tmp_path, "a.js", "export const a = 1;\n")
    b = module(tmp_path, "b.js", "// @uses a.js\nconst b = a;\n")
    c = module(tmp_path, "c.js", "// @uses a.js\nconst c = a;\n")
    d = module(tmp_path, "d.js", "// @uses c.js b.js\nconst d = b + c;\n")
    assert js_modules.order([d]) == [a, c, b, d]
    assert js_modules.order([b, c]) == [a, b, c]
    assert js_modules.order([c, b]) == [a, c, b]
    assert js_modules.join([a, b]) == "const a = 1;\n\n// @uses a.js\nconst b = a;\n"


def test_a_missing_module_fails_and_names_who_uses_it(tmp_path):
    a = module(tmp_path, "a.js", "// @uses ../gone.js\n")
    with pytest.raises(ValueError, match=r"a\.js uses gone\.js, which is not a file"):
        js_modules.order([a])


def test_modules_that_use_each_other_fail_with_the_circle_named(tmp_path):
    a = module(tmp_path, "a.js", "// @uses b.js\n")
    module(tmp_path, "b.js", "// @uses c.js\n")
    module(tmp_path, "c.js", "// @uses a.js\n")
    with pytest.raises(ValueError, match=r"in a circle: a\.js -> b\.js -> c\.js -> a\.js"):
        js_modules.order([a])


def test_a_long_header_goes_on_over_lines_of_its_kind(tmp_path):
    path = module(tmp_path, "a.js", "// @uses b.js\n// @uses c.js\n// @provides x, y,\n"
                  "// @provides z\n// a comment\n// @provides w\nexport const x = 1;\n")
    assert js_modules.header(path) == js_modules.Header(
        (tmp_path / "b.js", tmp_path / "c.js"), ("x", "y", "z"))


def node_check(text: str) -> subprocess.CompletedProcess:
    assert NODE, "node is needed to read the page's modules (Debian: apt-get install nodejs)"
    return subprocess.run([NODE, "--input-type=module", "--check"], input=text, text=True,
                          capture_output=True, timeout=60)


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_node_reads_each_module(path):
    checked = node_check(path.read_text())
    assert checked.returncode == 0, checked.stderr


def test_node_reads_each_joined_script_and_finds_a_name_declared_twice():
    chart = stepper.script(stepper.JS_CHART) + "\nexport default mountChart;\n"
    for text in (stepper.script(), chart, classroom.script(), lecture_plan.script()):
        checked = node_check(text)
        assert checked.returncode == 0, checked.stderr
    twice = node_check("const a = 1;\nfunction f() {}\nconst a = 2;\n")
    assert twice.returncode != 0 and "already been declared" in twice.stderr
