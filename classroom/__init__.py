"""A class: the lecturer leads, every student's page follows, the room answers questions.

The state of a class is small and lives apart from Streamlit's sessions (``state``);
a store keeps it, in this process or in Redis, and tells every subscriber when it
changes (``store``, ``redis_store``, ``hub``); HTTP routes beside Streamlit's let a
page follow a class over server-sent events and the lecturer drive it (``http``,
``server``); every operation they do (start, claim, the lecturer's actions, answer) is
written once in ``ops``, which the app's sidebar calls too. Codes, keys and signed voter
identities are in ``codes``, every bound on what a
client may send in ``limits``. ``follower`` speaks the protocol from Python (the
benchmark and the tests use it). Nothing here imports Streamlit.

The protocol, in short (``http`` has the details):

- ``POST /class`` starts a class and answers with its code and the lecturer's key.
- ``GET /class/CODE/events`` is the stream a page follows: ``state`` events (the
  lesson's view, the step, the question; each with ``id: seq``) and, for a page that
  asks, ``tally`` events (how many follow, explore, answered).
- ``POST /class/CODE/lecturer`` with the key in ``X-Class-Key``: step, view, ask,
  reveal, close, end, touch, remote.
- ``POST /class/CODE/answer``: a student's answer to the open question, once; its kind
  (``state.KINDS``: mistake, turn, choice, number, line) reads and judges it.
- ``GET /class/CODE/results`` with the key: every answer, as CSV (``results``).

A lecture plan (``plan``: slides of views with notes and questions, its file and link) is
read here too, and the built-in one is ``notes_plan.json``.
- ``POST /class/CODE/claim``: a second device of the lecturer's trades a one-time
  remote token for a key of its own.
"""
