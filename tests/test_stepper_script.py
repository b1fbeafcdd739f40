"""The page's script and style: every module declared once, in order, small, and tested on
its own; every colour the palette's."""

from __future__ import annotations

import re
from pathlib import Path

from ui.stepper import (
    ASSETS,
    COLOURS,
    JS_CHART,
    JS_FILES,
    JS_LAYERS,
    JS_MODULES,
    module_path,
    offline_html,
    pack,
    script,
    style,
)
from viz import palette

TESTS = Path(__file__).parent / "browser" / "js"
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|rgba?\([^)]*\)")


def test_every_file_is_a_declared_module_and_every_module_a_file():
    files = {path.relative_to(ASSETS) for path in ASSETS.rglob("*.js")}
    declared = [module_path(name).relative_to(ASSETS) for name in (*JS_MODULES, *JS_LAYERS)]
    assert len(declared) == len(set(declared))
    assert files == {module_path(name).relative_to(ASSETS) for name in JS_FILES}


def test_no_two_modules_declare_the_same_name():
    # joined, they are one module's scope: a name declared twice would stop the whole script
    declared = [name for module in JS_FILES for name in re.findall(
        r"^(?:export )?(?:async )?(?:function\*?|class|const|let|var) (\w+)",
        module_path(module).read_text(), re.M)]
    assert sorted(name for name in set(declared) if declared.count(name) > 1) == []


def test_no_module_is_over_400_lines():
    sizes = {name: len(module_path(name).read_text().splitlines())
             for name in JS_FILES}
    assert max(sizes.values()) <= 400, sizes


def test_every_module_has_its_own_test():
    missing = [name for name in JS_FILES
               if not (TESTS / f"test_{name}.py").exists()]
    assert missing == []


def test_each_layer_adds_itself_once_under_its_own_name():
    for name in JS_LAYERS:
        text = module_path(name).read_text()
        assert text.count("LAYERS.push(") == 1 and f'name: "{name}"' in text, name


def test_the_joined_script_is_one_module_with_one_default_export():
    text = script()
    assert re.findall(r"^export .*", text, re.M) == ["export default function (component) {"]
    # the layers come after the stepper that gathers them
    assert text.index("const LAYERS = [];") < min(text.index(f'name: "{name}"')
                                                  for name in JS_LAYERS)


def test_the_charts_script_is_plotly_s_loader_and_the_chart_with_one_default_export():
    text = script(JS_CHART)
    assert "function loadPlotly()" in text and "function mountChart(component)" in text
    assert re.findall(r"^export .*", text, re.M) == []  # ui/chart.py adds its default export
    assert "LAYERS" not in text  # none of the stepper's


def test_the_offline_page_mounts_the_same_script():
    page = offline_html(pack({"steps": 0}, {})).decode()
    assert "const mountStepper = function (component) {" in page
    assert "export default" not in page


def test_every_colour_of_the_stepper_is_the_palettes():
    css = (ASSETS / "stepper.css").read_text()
    # written in stepper.css: only Streamlit's defaults for its theme's variables
    for match in COLOUR.finditer(css):
        assert re.search(r"var\(--st-[a-z-]+, $", css[:match.start()]), match.group()
    colours = set(re.findall(r"var\(--pl-([a-z-]+)\)", css)) - {
        "status-chars", "chunk", "pair-width", "least-type"}
    assert colours == set(COLOURS)
    named = {value for name, value in vars(palette).items()
             if name.isupper() and isinstance(value, str)}
    assert set(COLOURS.values()) <= named
    for name, value in COLOURS.items():
        assert f"--pl-{name}: {value};" in style()
    for name in JS_FILES:
        assert not COLOUR.search(module_path(name).read_text()), name


def test_the_offline_page_has_the_same_style():
    page = offline_html(pack({"steps": 0}, {})).decode()
    assert style() in page
