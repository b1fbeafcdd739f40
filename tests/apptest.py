"""Helpers for driving the app's pages with Streamlit's AppTest (no browser)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def open_app(page: str | None = None, *, timeout: float = 60) -> AppTest:
    """Run app.py (optionally switched to ``pages/<page>.py``) and check it drew cleanly."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.run()
    if page is not None:
        at.switch_page(f"pages/{page}.py")
        at.run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """No exception reached the page."""
    assert not at.exception, [e.value for e in at.exception]


def by_key(elements, key: str):
    """The element with this widget key from an element list."""
    for element in elements:
        if element.key == key:
            return element
    raise KeyError(f"no widget with key {key!r}; have {[e.key for e in elements]}")


def metrics(at: AppTest) -> dict[str, str]:
    """The metrics on the page by label."""
    return {m.label: m.value for m in at.metric}


def latex(at: AppTest) -> str:
    """All LaTeX on the page, joined."""
    return "\n".join(element.value for element in at.latex)


def upload(at: AppTest, name: str, content: bytes) -> AppTest:
    """Upload a file through the sidebar picker and rerun."""
    at.file_uploader[0].set_value((name, content, "text/csv"))
    return at.run()
