// @uses ../stepper_assets/dom.js
// @provides ASKS, url, askRun, relay, ahead, tell, mainStepper, stepperAt, build, render, LEAD,
// @provides resume, keep, STRIP_KINDS, extensions, bringIntoView
// The class strip's page side (ui/classroom/ draws the strip; stream.js follows the class):
// the strip's buttons and words, the page's stepper as the strip sees it, the relay that
// asks Streamlit for a run, and the tab's own record of the class it leads. It talks to
// the page's stepper through window events (the stepper's class layer, layers/class.js):
//   "pl-class" {k, question, ...} -> the stepper goes to the class's step, shows its question
//   "pl-step" {k}                 <- the student (or lecturer) moved the stepper
//   "pl-answer" {question, choice} <- the student answered the class's question
//   "pl-class-ask" {}             <- a stepper drawn late asks for the step and question now
//   "pl-class-rerun" {...}        -> the relay at the foot of the sidebar asks for a run
// Every text that comes from outside is set as text, never as HTML.

// the question kinds the strip asks itself (questions.js, answers.js); "mistake" and "turn" are
// the stepper's (layers/class.js)
export const STRIP_KINDS = ["choice", "number", "line"];
// what the modules after this one add to the strip, called here by the hook's name so that the
// strip needs none of them: build(ui) as it is built, render(c) after each render, took(c, reply)
// for a lecturer's reply that carries a line question's answers (lead.js)
export const extensions = { build: [], render: [], took: [] };

export const ASKS = [["mistake", "Ask: mistake or not?"],
                     ["turn", "Ask: which way does w turn?"]];

export function url(path) {
  // relative to the page, as the stepper finds Plotly: the class routes sit beside Streamlit's
  return new URL(path, location.href).href;
}

export function askRun(detail) {
  // the relay in the sidebar (outside the strip's fragment) asks Streamlit for one run
  window.dispatchEvent(new CustomEvent("pl-class-rerun", { detail: { ...detail, at: Date.now() } }));
}

export function relay(component) {
  const root = component.parentElement;
  root.__plTrigger = component.setTriggerValue;
  if (!root.__plRelay) {
    root.__plRelay = (event) => root.__plTrigger("rerun", event.detail);
    window.addEventListener("pl-class-rerun", root.__plRelay);
  }
  return () => {
    if (!root.isConnected) window.removeEventListener("pl-class-rerun", root.__plRelay);
  };
}

export function ahead(component) {
  // a slide prepared ahead (in a frame of the lecturer's page: ui/classroom/follow.py's
  // offer_ahead): its view and kept run, which plan.js's key sends back to give the class
  component.parentElement.__plAhead = true;
  window.__plAhead = component.data.ahead;
  return () => {};
}

export function tell(detail) {
  window.dispatchEvent(new CustomEvent("pl-class", { detail }));
}

export function bringIntoView(box, block) {
  // a question that comes where no one looks (under the chart on a phone) scrolls into view,
  // at once for a reader who asks for less motion
  const { top, bottom } = box.getBoundingClientRect();
  if (top >= 0 && bottom <= window.innerHeight) return;
  const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  box.scrollIntoView({ block, behavior: still ? "auto" : "smooth" });
}

export function mainStepper() {
  // the page's own stepper: the first that follows no other (a second one is its pair)
  return document.querySelector(".pl-stepper:not(.pl-follower)");
}

export function stepperAt() {
  const box = mainStepper();
  if (!box || box.dataset.step === undefined) return null;
  const slider = box.querySelector(".pl-slider");
  // turnable: the next step's "which way does w turn?" has a true answer (layers/class.js)
  return { k: Number(box.dataset.step), K: Number(slider?.max ?? 0),
           turnable: box.dataset.turnAskable !== "false" };
}

// ------------------------------------------------------------------ the strip

export function build(root) {
  const box = html("div", { class: "pl-class", role: "region", "aria-label": "Class" }, root);
  const ui = { box };
  ui.text = html("span", { class: "pl-class-text", role: "status", "aria-live": "polite" }, box);
  ui.rejoin = html("button", { type: "button", class: "pl-button pl-primary pl-class-rejoin" }, box);
  ui.tally = html("span", { class: "pl-class-tally", role: "status", "aria-live": "polite" }, box);
  ui.asks = ASKS.map(([kind, label]) => {
    const b = html("button", { type: "button", class: "pl-button pl-class-ask" }, box, label);
    b.dataset.kind = kind;
    return b;
  });
  ui.reveal = html("button", { type: "button", class: "pl-button pl-primary pl-class-reveal" },
                   box, "Reveal the answers");
  ui.close = html("button", { type: "button", class: "pl-button pl-class-close" }, box,
                  "Close the question");
  ui.problem = html("span", { class: "pl-class-problem", role: "alert" }, box);
  for (const build of extensions.build) build(ui);  // the strip's own questions (questions.js)
  return ui;
}

export function render(c) {
  const { ui } = c;
  const lecturer = c.role === "lecturer";
  const st = c.state;
  const q = st?.question ?? null;
  ui.box.classList.toggle("pl-class-lecturer", lecturer);
  ui.box.classList.toggle("pl-class-ended", c.ended);
  ui.box.dataset.mode = c.ended ? "ended" : lecturer ? "lead" : c.mode;
  // the class's store or this page's network away (or the class lost, until its lecturer's
  // page gives it back): said in words, in the strip's polite live status
  const away = !c.ended && Boolean(c.offline || c.storeAway || c.lost || c.away);
  let text;
  if (c.ended) text = `The class ${c.display} has ended. This page keeps its last view.`;
  else if (lecturer && away) {
    text = `Class ${c.display} \u00b7 join at ${c.link} \u00b7 The class is reconnecting\u2026 `
      + "Your steps go on here, and the latest reaches the room when it is back.";
  } else if (lecturer) text = `Class ${c.display} \u00b7 join at ${c.link}`;
  else if (c.mode === "explore") text = "Exploring on your own \u00b7";
  else if (away) text = `The class ${c.display} is reconnecting\u2026`;
  else if (c.leadAway) text = "The lecturer is reconnecting\u2026 This page goes on from their step.";
  else if (c.rejoining) text = "Rejoining the class\u2026";
  else if (q && !q.revealed && c.answers?.[q.id] === undefined) {
    // a live status: a screen reader hears that a question is asked, and where to answer it
    text = "The lecturer asks a question: answer it in the question box";
  } else {
    text = `Following the class ${c.display}`;
    // an answer taken: said in the same live status that said the question was asked
    if (q && !q.revealed && !lecturer) text += " \u00b7 your answer is in";
  }
  if (!lecturer && c.mode === "explore" && away) text += " (reconnecting\u2026)";
  // the code and the join link in spans of their own: a projector's strip keeps the code on
  // one line and says the link to a screen reader only (the join card shows it to the room),
  // so that the strip fits beside the page's title
  const parts = [];
  let rest = text;
  for (const [shown, kind] of [[c.display ? `${c.display}` : "", "pl-class-code"],
                              [lecturer && !c.ended ? ` \u00b7 join at ${c.link}` : "",
                               "pl-class-join"]]) {
    const cut = shown ? rest.indexOf(shown) : -1;
    if (cut < 0) continue;
    const span = document.createElement("span");
    span.className = kind;
    span.textContent = shown;
    parts.push(rest.slice(0, cut), span);
    rest = rest.slice(cut + shown.length);
  }
  ui.text.replaceChildren(...parts, rest);
  const exploring = !lecturer && !c.ended && c.mode === "explore" && !c.rejoining;
  ui.rejoin.hidden = !exploring;
  if (exploring) ui.rejoin.textContent = `Rejoin the class (step ${st?.step ?? 0})`;
  ui.tally.hidden = !lecturer || c.ended || !c.tally;
  if (lecturer && c.tally) {
    // a question open: its answers against the pages following ("41 answers from 38
    // following": a page that answered and went exploring still counts its answer)
    const answers = c.tally.answered === 1 ? "1 answer" : `${c.tally.answered} answers`;
    ui.tally.textContent = q && !q.revealed
      ? `${answers} from ${c.tally.following} following \u00b7 ${c.tally.exploring} exploring`
      : `${c.tally.following} following \u00b7 ${c.tally.exploring} exploring`;
  }
  const at = stepperAt();
  const leading = lecturer && !c.ended && at !== null;
  for (const b of ui.asks) {
    b.hidden = !leading || q !== null;
    b.disabled = !at || at.k >= at.K || c.busy;
  }
  // a question asked in the strip has no step to stand on: revealed and closed on any page
  const asking = lecturer && !c.ended && (at !== null || STRIP_KINDS.includes(q?.kind));
  ui.reveal.hidden = !asking || !q || q.revealed;
  ui.close.hidden = !asking || !q;
  ui.reveal.disabled = ui.close.disabled = Boolean(c.busy);
  ui.problem.hidden = !c.problem;
  ui.problem.textContent = c.problem ?? "";
  for (const after of extensions.render) after(c);  // answers.js
}

// ------------------------------------------------------------------ the tab's class

export const LEAD = "plab.class.lead";  // this tab's class and key, for a reload of the page

export function resume(component) {
  // a page not in a class: if this tab led one before a reload, hand its key back once
  const root = component.parentElement;
  if (root.__plResumed) return () => {};
  root.__plResumed = true;
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(LEAD) || "null");
    sessionStorage.removeItem(LEAD);  // the strip keeps it again once the page leads
  } catch (error) { kept = null; }
  // nothing kept, nothing sent: a state value reruns the page, and most pages led nothing
  if (kept && kept.code && kept.key) component.setStateValue("resume", kept);
  return () => {};
}

export function keep(c) {
  try {
    if (c.role === "lecturer" && c.key && !c.ended) {
      sessionStorage.setItem(LEAD, JSON.stringify({ code: c.code, key: c.key }));
    } else if (c.role === "lecturer") {
      sessionStorage.removeItem(LEAD);
    }
  } catch (error) { /* no storage: a reload starts without the class */ }
}
