"""axe-core in a page: WCAG's automatic checks, each finding placed in the app or in Streamlit.

scripts/test.sh installs axe-core from the npm registry into tests/.axe (git-ignored).
"""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import ARTIFACTS, ROOT

AXE = ROOT / "tests" / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = ("serious", "critical")

# The app's own content: what its scripts draw in the main area and in the sidebar. The rest
# of the page (the header with its menu and toolbar, the sidebar's navigation and its toggle,
# the page's landmarks) is Streamlit's.
APP = '[data-testid="stMainBlockContainer"], [data-testid="stSidebarUserContent"]'

# Every serious or critical finding, one per element: its rule, where it is ("app" or
# "chrome"), a selector and the start of its HTML, and what axe says to fix.
_RUN = """async ([app, severe]) => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  const found = [];
  const element = (target) => {
    // a target is a list of selectors, one per shadow root or frame on the way in
    let node = document;
    for (const part of target) {
      const selector = Array.isArray(part) ? part[part.length - 1] : part;
      node = (node.shadowRoot ?? node).querySelector(selector);
      if (!node) return null;
    }
    return node;
  };
  for (const rule of result.violations) {
    for (const node of rule.nodes) {
      const impact = node.impact ?? rule.impact;
      if (!severe.includes(impact)) continue;
      const el = element(node.target);
      found.push({rule: rule.id, impact, where: el?.closest(app) ? 'app' : 'chrome',
                  target: node.target.flat().join(' '), html: node.html.slice(0, 160),
                  fix: (node.failureSummary ?? '').replace(/\\s+/g, ' ').slice(0, 300)});
    }
  }
  return found;
}"""


def axe_script() -> str:
    """The path of axe.min.js; the test fails, saying how to install it, when it is missing."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing at {AXE.relative_to(ROOT)}: bash scripts/test.sh "
                    "installs it (npm install --no-save --prefix tests/.axe axe-core@4)")
    return str(AXE)


def audit(tab) -> list[dict]:
    """Run axe-core over the whole page; its serious and critical findings (see _RUN)."""
    if not tab.evaluate("() => typeof window.axe === 'object'"):
        tab.add_script_tag(path=axe_script())
    return tab.evaluate(_RUN, [APP, list(SEVERE)])


def in_app(found: list[dict]) -> list[str]:
    """The findings in the app's own content, one line each (what a test fails on)."""
    return [f"{f['rule']} ({f['impact']}) at {f['target']}: {f['html']} -- {f['fix']}"
            for f in found if f["where"] == "app"]


# Streamlit's body background in its dark theme (theme.dark's default backgroundColor)
DARK_PAGE = "rgb(23, 22, 20)"


def assert_accessible(tab, name: str, *, dark: bool = False) -> None:
    """Nothing serious in the app's own content of this drawn page: in the light theme and,
    with ``dark``, in the dark one the browser then asks for (prefers-color-scheme, followed
    live). Every finding, Streamlit's own too, is kept in tests/artifacts/axe/name.json."""
    from testkit.browser import wait_drawn

    found = [dict(f, theme="light") for f in audit(tab)]
    if dark:
        tab.emulate_media(color_scheme="dark")
        tab.wait_for_function("(dark) => getComputedStyle(document.body).backgroundColor"
                              " === dark", arg=DARK_PAGE)
        wait_drawn(tab)
        found += [dict(f, theme="dark") for f in audit(tab)]
        tab.emulate_media(color_scheme="light")
    folder = ARTIFACTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
    assert in_app(found) == []
