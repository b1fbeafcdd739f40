"""The class strip's script (ui/classroom/): every module declared once and tested on its
own, and no module using a name of one joined after it (so no circle among them)."""

from __future__ import annotations

import re
from pathlib import Path

from ui import classroom
from ui.classroom import JS_MODULES, module_path

TESTS = Path(__file__).parent / "browser" / "js"
DECLARED = re.compile(r"^(?:export )?(?:async )?(?:function\*?|const|let|class) (\w+)", re.M)


def code_of(text: str) -> str:
    """A module's code without its comments and the text of its strings (a template's
    ``${...}`` parts are kept: they are code)."""
    text = re.sub(r"(?<![:\\])//.*$", "", text, flags=re.M)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', '""', text)
    return re.sub(r"`[^`]*`", lambda m: " ".join(re.findall(r"\$\{([^}]*)\}", m.group())),
                  text)


def uses(text: str, names: set[str]) -> set[str]:
    """The names of ``names`` a module's code uses (not as a property: ``c.name``, or an
    object's key: ``{name: 1}``)."""
    code = code_of(text)
    return {n for n in names if re.search(rf"(?<![.\w$]){re.escape(n)}\b(?!\s*:)", code)}


def declared() -> dict[str, set[str]]:
    return {name: set(DECLARED.findall(module_path(name).read_text())) for name in JS_MODULES}


def test_every_class_module_is_a_file_and_has_its_own_test():
    files = {p.name for p in classroom.ASSETS.glob("*.js")}
    assert files == {module_path(n).name for n in JS_MODULES if n not in classroom.SHARED_JS}
    assert [n for n in JS_MODULES if not (TESTS / f"test_{n}.py").exists()] == []


def test_no_name_is_declared_twice_and_none_is_used_before_its_module():
    names = declared()
    for i, a in enumerate(JS_MODULES):
        for b in JS_MODULES[i + 1:]:
            assert not names[a] & names[b], (a, b, names[a] & names[b])
    for i, module in enumerate(JS_MODULES):
        later = set().union(*(names[m] for m in JS_MODULES[i + 1:])) - names[module]
        used = uses(module_path(module).read_text(), later)
        assert used == set(), f"{module}.js uses {sorted(used)} of a module joined after it"


def test_the_search_finds_a_name_of_a_later_module_and_skips_words_and_properties():
    text = ('// over(c) in a comment\nconst t = "over(c)";\nc.over();\nui.rejoin = 1;\n'
            "const s = `${c.code} over`;\nconst d = { over: 1 };\n")
    assert uses(text, {"over", "rejoin"}) == set()
    assert uses(text + "over(c);\n", {"over"}) == {"over"}
    assert uses("const s = `${over(c)}`;\n", {"over"}) == {"over"}


def test_lead_and_stream_do_not_use_each_others_names_both_ways():
    names = declared()
    lead, stream = (module_path(n).read_text() for n in ("lead", "stream"))
    assert uses(lead, names["stream"]) == set()
    assert uses(stream, names["lead"]) != set()  # stream.js drives lead.js, one way
