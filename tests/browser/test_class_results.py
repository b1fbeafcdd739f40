"""The new kinds of question and the results they leave, through the class's own routes from
real Chromium pages: two phones follow a class, each answers a number, a multiple choice and
a line with its page's own voter cookie; nothing of another's answer reaches a phone before
the reveal; the lecturer's CSV then holds exactly what was sent, row by row."""

from __future__ import annotations

import csv
import io
import json
import urllib.request

import pytest

from testkit.browser import ARTIFACTS, timeout_ms
from testkit.class_journey import PHONE, open_page

pytestmark = pytest.mark.browser

VIEW = "data=lecture-notes-example-4-points&eta=0.1&init=typed&w1=0.2&w2=0&b=-0.1"
NUMBER = {"text": "At the first point, what is y·a?", "answer": "-0.1", "tolerance": "0"}
CHOICE = {"text": "Where is a > 0?", "options": ["<b>w's side</b>", "=the other"],
          "right": [0]}
LINE = {"text": "Draw the boundary after this update.", "w": ["0.1", "-0.1"], "b": "-0.2",
        "box": ["0", "3", "-1", "2"]}


def post(url: str, body: dict, key: str | None = None) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", **({"X-Class-Key": key} if key else {})})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


ANSWER = """async ([code, question, choice]) => {
  const r = await fetch(`/class/${code}/answer`, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify({question, choice})});
  return [r.status, await r.text()];
}"""


def answer(page, code: str, question: int, choice) -> tuple[int, str]:
    """The page answers with its own cookie; a page whose stream is not open yet gets 403
    (only a page that follows answers): it is given time to open it."""
    deadline = timeout_ms(30_000)
    while True:
        status, text = page.evaluate(ANSWER, [code, question, choice])
        if status != 403 or deadline <= 0:
            return status, text
        page.wait_for_timeout(500)
        deadline -= 500


def test_two_phones_answer_three_kinds_and_the_csv_holds_what_they_sent(browser, server_url):
    made = post(f"{server_url}/class", {"view": VIEW, "step": 0})
    code, key = made["code"], made["key"]
    lead = f"{server_url}/class/{code}/lecturer"
    errors: list[str] = []
    phones = [open_page(browser, f"{server_url}/?class={code}", PHONE, errors)
              for _ in range(2)]
    pages = [page for _, page in phones]
    try:
        sent = []  # (slide, question, phone, answer as read, right)
        number = post(lead, {"action": "ask", "kind": "number", "step": 1, "spec": NUMBER,
                             "slide": 5}, key)["state"]["question"]
        assert answer(pages[0], code, number["id"], "-0,1")[0] == 204
        assert answer(pages[1], code, number["id"], "0.1")[0] == 204
        assert answer(pages[0], code, number["id"], "-0.1") == (
            409, '{"error":"already answered"}')  # once per device
        status, text = answer(pages[1], code, number["id"], "minus a tenth")
        assert status == 400 and "an answer is a number" in text
        sent += [(5, number["id"], 0, "-0.1", "yes"), (5, number["id"], 1, "0.1", "no")]
        # a phone sees the question, never the right answer nor anyone's answers
        seen = pages[1].evaluate(f"() => fetch('/class/{code}').then(r => r.json())")
        assert seen["question"] == {**number} and "answer" not in seen["question"]
        assert "counts" not in seen["question"]
        post(lead, {"action": "reveal"}, key)

        choice = post(lead, {"action": "ask", "kind": "choice", "step": 0, "spec": CHOICE,
                             "slide": 1}, key)["state"]["question"]
        assert answer(pages[1], code, choice["id"], 0)[0] == 204
        assert answer(pages[0], code, choice["id"], 1)[0] == 204
        sent += [(1, choice["id"], 1, "<b>w's side</b>", "yes"),
                 (1, choice["id"], 0, "'=the other", "no")]  # a formula is written as text
        post(lead, {"action": "reveal"}, key)

        line = post(lead, {"action": "ask", "kind": "line", "step": 1, "spec": LINE,
                           "slide": 5}, key)["state"]["question"]
        status, text = answer(pages[0], code, line["id"], [5, 5, 6, 6])
        assert status == 400 and "off the plane" in text
        assert answer(pages[0], code, line["id"], [1.5, -0.5, 3, 1])[0] == 204  # on it
        assert answer(pages[1], code, line["id"], [0, 1, 1, 0])[0] == 204  # across it
        sent += [(5, line["id"], 0, "1.5 -0.5 3 1", "yes"), (5, line["id"], 1, "0 1 1 0", "no")]
        # the lines reach the lecturer's devices as they come, and no phone
        incoming = post(lead, {"action": "answers", "question": line["id"], "after": 0}, key)
        assert [a["answer"] for a in incoming["answers"]] == ["1.5 -0.5 3 1", "0 1 1 0"]
        asked = pages[1].evaluate(f"""() => fetch('/class/{code}/lecturer', {{method: 'POST',
            headers: {{'Content-Type': 'application/json'}},
            body: JSON.stringify({{action: 'answers', question: {line['id']}, after: 0}})}})
            .then(r => r.status)""")
        assert asked == 403
        revealed = post(lead, {"action": "reveal"}, key)["state"]["question"]
        assert revealed["counts"] == [1, 1] and revealed["w"] == ["0.1", "-0.1"]

        got = pages[0].evaluate(f"() => fetch('/class/{code}/results').then(r => r.status)")
        assert got == 403  # a student's page has no key
        request = urllib.request.Request(f"{server_url}/class/{code}/results",
                                         headers={"X-Class-Key": key})
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
        (ARTIFACTS / "class_results.csv").write_text(text)
        rows = list(csv.DictReader(io.StringIO(text)))
        answers = [r for r in rows if r["row"] != "summary"]
        # each phone is one anonymous number, the first to answer being 1
        number_of = {0: answers[0]["voter"], 1: answers[1]["voter"]}
        assert sorted(number_of.values()) == ["1", "2"]
        assert [(int(r["slide"]), int(r["question"]), r["voter"], r["answer"], r["right"])
                for r in answers] == [(s, q, number_of[p], a, right)
                                      for s, q, p, a, right in sent]
        assert all(0 <= float(r["seconds"]) < 120 for r in answers)
        assert [(r["question"], r["right"]) for r in rows if r["row"] == "summary"] == [
            (str(number["id"]), "1 of 2"), (str(choice["id"]), "1 of 2"),
            (str(line["id"]), "1 of 2")]
        assert errors == []
        pages[0].screenshot(path=ARTIFACTS / "class_results_phone.png")
    finally:
        for context, _ in phones:
            context.close()
