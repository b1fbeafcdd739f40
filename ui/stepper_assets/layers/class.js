// @uses ../dom.js ../format.js ../exact.js ../wire.js ../stepper.js
// @provides CLASS_CHOICES, STEPPER_KINDS, inClass, classTruth, classTruthWords, classQuestion,
// @provides classBars, turnAskable
// The stepper in a class (ui/classroom/; the page's side is classroom.js), driven through
// window events only. Only the stepper that owns the keys takes part (the page's own: its
// step is step=k):
//   "pl-class" {k}: go to step k (the class moved: not a press, so no "pl-step" back)
//   "pl-class" {question, lecturer, answered, canAnswer}: the class's question on its step,
//     in Predict's own box: asked (canAnswer), waiting for the reveal, or revealed as bars of
//     the room's answers beside the true step; {question: null} takes it away
//   "pl-step" {k} (stepped): this stepper moved by a key, button, slider or Play
//   "pl-answer" {question, choice}: the answer to the class's question
//   "pl-class-ask" (listen): the class's step and question, please, as they are now

export const CLASS_CHOICES = { mistake: "Mistake", no_mistake: "No mistake",
                               anticlockwise: "\u21ba anticlockwise", clockwise: "\u21bb clockwise" };

// the class's kinds asked in Predict's box: a step's own questions
export const STEPPER_KINDS = { mistake: true, turn: true };

export function inClass(run, ownsKeys) {
  return Boolean(run) && Boolean(ownsKeys) && !run.header.follow;
}

export function classTruth(run, step) {
  // the answer the run gives: no mistake, or a mistake and the way w turns, when it turns one
  // way or the other (exact.js's turnOf: exactly, on an exact run); else just "mistake". A
  // kernel run is sent with no w (its alphas grow): a mistake there has no w to turn
  const c = run.columns;
  if (row(c.updated, step) !== 1) return "no_mistake";
  if (!c.W) return "mistake";
  const { way } = turnOf(run, row(c.W, step - 1), row(c.W, step));
  if (way === 0) return "mistake";
  return way > 0 ? "anticlockwise" : "clockwise";
}

export function classTruthWords(run, step) {
  // the reveal's sentence: what the step was, true in every case
  const c = run.columns;
  const truth = classTruth(run, step);
  if (truth === "no_mistake") return "It was not a mistake.";
  if (truth !== "mistake") return `It was a mistake: w turns ${truth}.`;
  if (!c.W) return "It was a mistake: its \u03b1 grows by one.";
  const fact = movedWords(turnOf(run, row(c.W, step - 1), row(c.W, step)), row(c.W, step),
                         row(c.b, step) !== row(c.b, step - 1));
  return `It was a mistake, and ${fact}.`;
}

function classChoices(box, labels, onPick) {
  const choices = html("div", { class: "pl-choices" }, box);
  for (const [label, value] of labels) {
    const b = html("button", { type: "button", class: "pl-button" }, choices, label);
    b.addEventListener("click", () => onPick(value));
  }
  choices.querySelector("button").focus({ preventScroll: true });
  return choices;
}

export function classQuestion(stepper, { question: q, answered, canAnswer, lecturer }) {
  const { predict } = stepper;
  const { header: h, columns: c } = stepper.run;
  // (the other kinds are asked in the class's strip, on any page: ui/classroom_assets/questions.js)
  if (!q || !(q.kind in STEPPER_KINDS) || q.step < 1 || q.step > stepper.K
      || row(c.index, q.step) < 0) {
    if (predict.quiz?.cls) predict.close();
    return;
  }
  const shown = `${q.id}:${q.revealed}:${answered}:${canAnswer}`;
  if (predict.quiz?.cls === q.id && predict.quiz.shown === shown) return;  // the same again
  predict.quiz = { cls: q.id, shown };  // Predict's box holds the class's question
  const box = predict.box;
  box.textContent = "";
  box.hidden = false;
  // the words of Predict's question (predict.js), as text: class names are outside text
  const i = row(c.index, q.step);
  const x = row(c.X, i);
  const y = row(c.y, i);
  html("p", { class: "pl-class-asks" }, box, "The class is asked:");
  const asked = html("p", {}, box, `Step ${(h.t0 ?? 0) + q.step} visits example ${i + 1}: `
       + `${named("x", x)}, y = ${labelled(y, h.classes)}. `
       + "Is it a mistake?" + (q.kind === "turn" ? " And if it is, which way does w turn?" : ""));
  // said as it arrives, to whoever answers it (the stepper's live region)
  if (canAnswer && !q.revealed) stepper.ui.announce.textContent = `The class is asked: ${asked.textContent}`;
  const send = (choice) => {
    window.dispatchEvent(new CustomEvent("pl-answer", { detail: { question: q.id, choice } }));
  };
  if (q.revealed) {
    classBars(stepper.run, box, q);
  } else if (canAnswer) {
    const first = classChoices(box, [["Mistake", "mistake"], ["No mistake", "no_mistake"]],
                               (said) => {
      if (said === "mistake" && q.kind === "turn") {
        first.remove();
        html("p", {}, box, "Which way does w (and with it the boundary) turn?");
        classChoices(box, [[CLASS_CHOICES.anticlockwise, "anticlockwise"],
                           [CLASS_CHOICES.clockwise, "clockwise"]], send);
      } else {
        send(said);
      }
    });
  } else if (lecturer) {
    html("p", { class: "pl-class-wait pl-class-room" }, box,
         "The room is answering: the answers show when you reveal them.");
  } else {
    const said = CLASS_CHOICES[answered];
    html("p", { class: "pl-class-wait" }, box, (said ? `Your answer: ${said}. ` : "You have answered. ")
         + "The room's answers show when the lecturer reveals them.");
  }
}

export function classBars(run, box, q) {
  const truth = classTruth(run, q.step);
  const counts = q.counts ?? q.choices.map(() => 0);
  const total = counts.reduce((a, b) => a + b, 0);
  const most = Math.max(1, ...counts);
  const chart = html("div", { class: "pl-class-bars", role: "img" }, box);
  const said = [];
  const rightChoice = q.kind === "mistake" && truth !== "no_mistake" ? "mistake" : truth;
  q.choices.forEach((choice, j) => {
    const right = choice === rightChoice;
    const bar = html("div", { class: `pl-class-bar${right ? " pl-class-true" : ""}` }, chart);
    html("span", { class: "pl-class-label" }, bar, CLASS_CHOICES[choice] + (right ? " \u2713" : ""));
    const track = html("span", { class: "pl-class-track" }, bar);
    html("span", { class: "pl-class-fill" }, track).style.width = `${(100 * counts[j]) / most}%`;
    html("span", { class: "pl-class-count" }, bar, String(counts[j]));
    said.push(`${CLASS_CHOICES[choice]}: ${counts[j]}`);
  });
  chart.setAttribute("aria-label", `The room's answers: ${said.join(", ")}`);
  const way = q.kind === "mistake" && truth !== "no_mistake" ? "It was a mistake."
    : classTruthWords(run, q.step);
  html("p", { class: "pl-class-truth" }, box,
       `${total} answer${total === 1 ? "" : "s"}. ${way} The step is shown.`);
}

function classEvent(part, stepper, detail) {
  if (!detail || !inClass(stepper.run, stepper.ownsKeys)) return;
  if (Number.isInteger(detail.k)) {
    part.moving = true;  // the class moved it: no "pl-step" back
    try {
      stepper.player.stop();
      if (stepper.predict.quiz && !stepper.predict.quiz.cls) stepper.predict.close();
      stepper.go(detail.k);
    } finally {
      part.moving = false;
    }
  }
  if ("question" in detail) classQuestion(stepper, detail);
  stepper.schedule();
}

export function turnAskable(run, step) {
  // whether "which way does w turn?" has its true answer among the class's choices at this
  // step: not on a mistake that leaves w with no way to turn (from w = 0, to w = 0, a half
  // turn), nor anywhere on a run with no w (a kernel run); there the class is asked only
  // "mistake or not" (lead.js's ask)
  return Boolean(run.columns.W) && classTruth(run, step) !== "mistake";
}

LAYERS.push({
  name: "class",
  build: () => ({ moving: false, box: null }),
  draw(part, { run, k, ownsKeys }) {
    // the strip reads the next step's askable questions off the stepper's box (stepperAt)
    if (!part.box || !inClass(run, ownsKeys)) return;
    const next = k < run.header.steps && turnAskable(run, k + 1);
    if (part.box.dataset.turnAskable !== String(next)) part.box.dataset.turnAskable = String(next);
  },
  stepped(part, { run, k, ownsKeys }) {
    if (!part.moving && inClass(run, ownsKeys)) {
      window.dispatchEvent(new CustomEvent("pl-step", { detail: { k } }));
    }
  },
  listen(part, view, stepper) {
    part.box = stepper.ui.box;
    const onClass = (event) => classEvent(part, stepper, event.detail);
    window.addEventListener("pl-class", onClass);
    // the class's step and question as they are now: the strip may have told them before
    // this stepper was there to hear
    window.dispatchEvent(new CustomEvent("pl-class-ask"));
    return () => window.removeEventListener("pl-class", onClass);
  },
});
