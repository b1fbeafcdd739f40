"""The page's script: every module declared once, in order, small, and tested on its own."""

from __future__ import annotations

import re
from pathlib import Path

from ui.stepper import ASSETS, JS_LAYERS, JS_MODULES, module_path, offline_html, pack, script

TESTS = Path(__file__).parent / "browser" / "js"


def test_every_file_is_a_declared_module_and_every_module_a_file():
    files = {path.relative_to(ASSETS) for path in ASSETS.rglob("*.js")}
    declared = [module_path(name).relative_to(ASSETS) for name in (*JS_MODULES, *JS_LAYERS)]
    assert len(declared) == len(set(declared)) and files == set(declared)


def test_no_module_is_over_400_lines():
    sizes = {name: len(module_path(name).read_text().splitlines())
             for name in (*JS_MODULES, *JS_LAYERS)}
    assert max(sizes.values()) <= 400, sizes


def test_every_module_has_its_own_test():
    missing = [name for name in (*JS_MODULES, *JS_LAYERS)
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


def test_the_offline_page_mounts_the_same_script():
    page = offline_html(pack({"steps": 0}, {})).decode()
    assert "const mountStepper = function (component) {" in page
    assert "export default" not in page
