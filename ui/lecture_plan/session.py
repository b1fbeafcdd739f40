"""The names a session keeps for its lecture plan (``st.session_state``), and the limits."""

from __future__ import annotations

from classroom import plan as plans

PLAN = "plan.plan"  # the plan in progress (classroom.plan.Plan)
AT = "plan.at"  # the slide on screen while the lecture is given (its index), else absent
GO = "plan.go"  # the slide asked for: opened as the next run begins
GO_AHEAD = "plan.go_ahead"  # with it, what its prepared page offered the class (plan.js)
ASKED = "plan.asked"  # the browser was asked once for the plan it keeps
FORGET = "plan.forget"  # the lecturer cleared the plan: the browser forgets it too
PROBLEM = "plan.problem"  # why a plan (a file, a link, the browser's copy) was refused
NOTICE = "plan.notice"  # what became of the last change (a slide added, a plan opened)
WHOLE = "plan.whole"  # a change the whole page must show (a slide opened, the bar gone)
UPLOADING = "plan.uploading"  # the lecturer asked to open a plan file: its uploader shows
UPLOADS = "plan.uploads"  # the uploader's generation: a new one after each file taken
NOTES_LINK = "notes"  # ?plan=notes: the notes' lecture
PREPARE = "prepare"  # ?plan=prepare: a page that opens a slide's view ahead of it (plan.js)
MOUNTED = "plan.mounted"  # this run drew the bar (before the page)
PREPARING = "plan.preparing"  # this session is such a page: it draws the view, nothing more
# a file bigger is refused before it is read (the plan's own limit)
MAX_FILE_BYTES = plans.MAX_PLAN_BYTES
