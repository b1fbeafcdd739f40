"""What git holds is what the project uses: no large file outside the README's screenshots."""

from __future__ import annotations

import subprocess

from tests.apptest import ROOT

MAX_BYTES = 1_000_000
# the screenshots the README shows are the only large files the project keeps
LARGE_ALLOWED = "docs/screenshots/"


def large_files(paths, size) -> list[str]:
    """The paths over MAX_BYTES that lie outside LARGE_ALLOWED."""
    return [path for path in paths
            if not path.startswith(LARGE_ALLOWED) and size(path) > MAX_BYTES]


def test_no_tracked_file_over_a_megabyte_outside_the_screenshots():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    paths = [p for p in listed if p and (ROOT / p).is_file()]
    assert len(paths) > 100
    assert large_files(paths, lambda p: (ROOT / p).stat().st_size) == []


def test_the_check_names_a_large_file_and_spares_a_screenshot():
    sizes = {"plotly-7.0.0-py3-none-any.whl": 9_000_000, "docs/screenshots/hall.png": 2_000_000,
             "core/perceptron.py": 20_000}
    assert large_files(sizes, sizes.get) == ["plotly-7.0.0-py3-none-any.whl"]


def top_level_folders() -> set[str]:
    """The folders git tracks at the root (hidden ones aside)."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    return {path.split("/")[0] for path in listed if "/" in path and not path.startswith(".")}


def test_the_readme_and_the_map_name_every_top_level_folder():
    folders = top_level_folders()
    assert {"core", "datasets", "viz", "ui", "lessons", "classroom", "tests"} <= folders
    readme = (ROOT / "README.md").read_text()
    layout = readme[readme.index("## Layout"):]
    layout = layout[:layout.index("\n## ")]
    architecture = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    for folder in folders:
        assert f"| `{folder}/` |" in layout, folder
        assert f"{folder}/" in architecture, folder


def test_the_readme_links_the_map_and_the_guide():
    readme = (ROOT / "README.md").read_text()
    assert "(docs/ARCHITECTURE.md)" in readme and "(CONTRIBUTING.md)" in readme
    assert (ROOT / "CONTRIBUTING.md").is_file()
