"""A lecture plan in the page: built from the views of the app, kept, and given from a clicker.

The plan itself (its slides, its file and its link, the notes' built-in lecture) is
``classroom/plan.py``; this package is the lecturer's side of it in the app:

- **Building.** The sidebar's *Lecture* holds the plan in progress: *Add this view to the
  lecture* takes the view a Share link holds (lesson, part, settings, data) at its step, or
  covering steps k to m; a slide is renamed, given notes, moved or removed there. The plan
  downloads as its file and uploads again; the browser keeps the one in progress between
  visits (its localStorage, ``plan.js``); a link ``?plan=...`` opens a plan on its first slide
  (``?plan=notes``: the notes' lecture).
- **Giving.** A slide opens as a link to its view would open (the session's settings dropped,
  the view read as a fresh link, at the slide's step): one run of the page. In a class the
  lecturer's page then publishes its view, as any change of view does (ui/classroom/), so
  every following page opens the slide. The clicker's keys, the slide bar and a remote
  phone's Next and Previous are ``lecture_plan_assets/plan.js``; a remote (a second device of
  the lecturer's) finds the class's plan in this process (``remote.py``).
- **Preparing.** While a slide shows, the next one is prepared (:func:`prepare`).

Titles and notes are outside text: every one is shown literally (ui/outside.py, or set as
text by the page's script).

Its modules do one job each (docs/ARCHITECTURE.md, "A lecture plan"): ``session.py`` (the
names the session keeps), ``assets.py`` (the component), ``reading.py`` (the plan read and
written against the lessons), ``remote.py`` (the plan lent to the lecturer's other devices),
``opening.py`` (a link's plan and a slide opened, before and after the page), ``bar.py``
(the slide bar and the clicker's keys), ``builder.py`` (the sidebar's *Lecture*) and
``files.py`` (the plan's file out and in, its link, the browser's copy). This package gives
the names app.py and the tests take from it.
"""

from __future__ import annotations

from ui.lecture_plan.assets import ASSETS, JS_PATHS, script
from ui.lecture_plan.bar import bar
from ui.lecture_plan.builder import sidebar
from ui.lecture_plan.opening import after, begin, prepare, prepare_link
from ui.lecture_plan.session import (
    ASKED,
    AT,
    FORGET,
    GO,
    MAX_FILE_BYTES,
    MOUNTED,
    NOTES_LINK,
    NOTICE,
    PLAN,
    PREPARE,
    PREPARING,
    PROBLEM,
    UPLOADING,
    UPLOADS,
    WHOLE,
)

__all__ = [
    "ASKED", "ASSETS", "AT", "FORGET", "GO", "JS_PATHS", "MAX_FILE_BYTES", "MOUNTED",
    "NOTES_LINK", "NOTICE", "PLAN", "PREPARE", "PREPARING", "PROBLEM", "UPLOADING", "UPLOADS",
    "WHOLE", "after", "bar", "begin", "prepare", "prepare_link", "script", "sidebar",
]
