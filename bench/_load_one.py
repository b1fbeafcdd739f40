"""Read one file with a tree's loader in this fresh process; print what it cost as JSON.

    PYTHONPATH=<tree> python bench/_load_one.py FILE REPEATS

Run by bench/loader_cost.py (so that another tree's loader can be measured,
one without ``datasets.dialect`` too). The file is handed to ``load_csv`` as
Streamlit hands an upload (a file object with a name and a size), ``REPEATS``
times; printed: the least CPU time of this process around one call, the
lines the loader read (``datasets.dialect.Text.lines_read``, null when the
tree does not count them) and what it said.
"""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path

from datasets.loader import load_csv

try:
    from datasets import dialect
except ImportError:
    dialect = None


class Upload(io.BytesIO):
    """The upload as Streamlit's UploadedFile gives it: bytes with a name and a size."""

    def __init__(self, content: bytes, name: str):
        super().__init__(content)
        self.name, self.size = name, len(content)


def main() -> None:
    path, repeats = Path(sys.argv[1]), int(sys.argv[2])
    content = path.read_bytes()
    made = []
    if dialect is not None and hasattr(dialect, "Text"):
        init = dialect.Text.__init__

        def counting(self, data):
            init(self, data)
            made.append(self)

        dialect.Text.__init__ = counting
    best = float("inf")
    for _ in range(repeats):
        made.clear()
        upload = Upload(content, path.name)
        start = time.process_time()
        try:
            said = f"accepted: {len(load_csv(upload)):,} points"
        except ValueError as error:
            said = str(error)
        best = min(best, time.process_time() - start)
    lines = sum(text.lines_read for text in made) if dialect is not None else None
    print(json.dumps({"cpu": best, "lines": lines, "said": said}))


if __name__ == "__main__":
    main()
