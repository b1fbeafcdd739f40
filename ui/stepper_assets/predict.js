// @uses dom.js ids.js format.js exact.js wire.js
// @provides Predict
// Predict mode: before a step is shown the student says whether it is a mistake and, for a
// mistake, which way w turns; the step is shown with the verdict, and the score kept.

export class Predict {
  // box: where the question goes; scoreLine: the verdict and score; toggle: the checkbox;
  // go(k) shows step k; announce: the stepper's live region; resume(): the control the focus
  // goes back to once an answer is given (the answers' buttons go with the question)
  constructor(box, scoreLine, toggle, go, { announce = null, resume = null } = {}) {
    Object.assign(this, { box, scoreLine, toggle, go, announce, resume, quiz: null, right: 0,
                          asked: 0 });
    // the answer and the score are said when they change; a question is said as it appears,
    // and is the description of the group whose answer has the focus (question())
    scoreLine.setAttribute("role", "status");
  }

  question(text) {
    // a question, which describes the group of its answers to a screen reader
    const id = newId("pl-q");
    html("p", { id }, this.box, text);
    const ids = (this.box.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
    this.box.setAttribute("aria-describedby", [...ids, id].join(" "));
    if (this.announce) this.announce.textContent = text;
  }

  get on() {
    return this.toggle.checked;
  }

  load(header) {
    // the kernel perceptron has no w to turn: no Predict
    this.toggle.parentElement.hidden = header.layers.includes("kernel");
    this.close();
  }

  close() {
    this.quiz = null;
    this.box.hidden = true;
    this.box.textContent = "";
    this.box.removeAttribute("aria-describedby");
  }

  toggled(ownsKeys) {
    // the toggle changed: a question open goes, and the first time, how it works
    this.close();
    this.scoreLine.hidden = !this.on && this.asked === 0;
    if (this.on && this.asked === 0) {
      this.scoreLine.hidden = false;
      this.scoreLine.textContent = `Predict: press Step${ownsKeys ? " (\u2192)" : ""} and answer `
        + "before the step is shown.";
    }
  }

  ask(run, k) {
    // before step k is shown: mistake or not
    const { header: h, columns: c } = run;
    const i = row(c.index, k);
    const x = row(c.X, i);
    const y = row(c.y, i);
    // which way w turns, exactly on an exact run: asked only when it turns one way or the
    // other (from w = 0, to w = 0, a half turn or the same direction have no such answer)
    const moved = turnOf(run, row(c.W, k - 1), row(c.W, k));
    const quiz = { k, mistake: row(c.updated, k) === 1, turn: moved.way,
                   fact: movedWords(moved, row(c.W, k), row(c.b, k) !== row(c.b, k - 1)) };
    this.quiz = quiz;
    const box = this.box;
    box.textContent = "";
    box.removeAttribute("aria-describedby");
    box.hidden = false;
    this.question(`Step ${(h.t0 ?? 0) + k} visits example ${i + 1}: ${named("x", x)}, `
         + `y = ${labelled(y, h.classes)}. Is it a mistake?`);
    this.choices([["Mistake", () => this.answerMistake(true)],
                  ["No mistake", () => this.answerMistake(false)]]);
  }

  choices(options) {
    // the answers as buttons, the first with the focus
    const choices = html("div", { class: "pl-choices" }, this.box);
    for (const [label, onClick] of options) {
      const b = html("button", { type: "button", class: "pl-button" }, choices, label);
      b.addEventListener("click", onClick);
    }
    choices.querySelector("button").focus({ preventScroll: true });
  }

  answerMistake(said) {
    // a mistake said and right, where w turns: then which way
    const quiz = this.quiz;
    if (!quiz) return;
    if (said && quiz.mistake && quiz.turn !== 0) {
      this.box.querySelector(".pl-choices").remove();
      this.question("Which way does w (and with it the boundary) turn?");
      this.choices([["\u21ba anticlockwise", 1], ["\u21bb clockwise", -1]].map(
        ([label, value]) => [label, () => this.reveal(quiz.turn === value, value)]));
      return;
    }
    this.reveal(said === quiz.mistake, null);
  }

  reveal(right, turned) {
    // the step is shown, with whether the prediction was right
    const quiz = this.quiz;
    this.asked += 1;
    if (right) this.right += 1;
    const answering = this.box.contains(document.activeElement);
    this.close();
    this.go(quiz.k);
    // the answer's button has gone: the focus stays in the stepper, on what comes next
    if (answering) this.resume?.()?.focus({ preventScroll: true });
    const way = quiz.turn > 0 ? "anticlockwise" : "clockwise";
    let said;
    const fact = quiz.mistake && quiz.fact ? `, and ${quiz.fact}` : "";
    if (right) said = fact ? `Right: it was a mistake${fact}` : "Right";
    else if (turned !== null) said = `Not quite: it was a mistake, but w turns ${way}`;
    else said = quiz.mistake ? `Not quite: it was a mistake${fact}` : "Not quite: it was correct";
    this.scoreLine.hidden = false;
    this.scoreLine.textContent = `${said}. Predictions: ${this.right} / ${this.asked} right.`;
  }
}
