// @uses ../stepper_assets/dom.js strip.js lead.js questions.js
// @provides answerBox, revealed, drawRoom, startIncoming, stopIncoming, pollIncoming, tookIncoming,
// @provides renderQuestions
// A student's answer to a strip question (questions.js asks and reveals): buttons for a
// choice, a box for a number (a clear message for text that is not one), and a line drawn on
// the student's own plane by two taps or a drag, or typed as two points (the keyboard's way);
// the reveal of each kind; and the lines of the room as a lecturer's plane shows them, faint,
// as they come. Every outside text is set as text.

function said(c, text) {
  // the quiz's own live region: what became of an answer, for a screen reader too
  let live = c.ui.quiz.querySelector(".pl-class-said");
  if (!live) live = html("p", { class: "pl-class-said", role: "status" }, c.ui.quiz);
  live.textContent = text;
}

function refuse(c, text) {
  let alert = c.ui.quiz.querySelector(".pl-class-refused");
  if (!alert) alert = html("p", { class: "pl-class-refused", role: "alert" }, c.ui.quiz);
  alert.textContent = text;
}

export function answerBox(c, q) {
  const box = c.ui.quiz;
  if (q.kind === "choice") {
    const choices = html("div", { class: "pl-choices" }, box);
    (q.options ?? []).forEach((option, i) => {
      const b = html("button", { type: "button", class: "pl-button" }, choices, option);
      b.addEventListener("click", () => sendAnswer(q.id, i));
    });
  } else if (q.kind === "number") {
    numberBox(c, q);
  } else if (q.kind === "line") {
    lineBox(c, q);
  }
}

function field(box, label, attrs) {
  const id = `pl-class-${Math.random().toString(36).slice(2)}`;
  const wrap = html("span", { class: "pl-class-field" }, box);
  html("label", { for: id }, wrap, label);
  return html("input", { id, type: "text", autocomplete: "off", ...attrs }, wrap);
}

function numberBox(c, q) {
  const form = html("form", { class: "pl-class-form" }, c.ui.quiz);
  const input = field(form, "Your number", { inputmode: "decimal", placeholder: "e.g. 0.35",
                                             maxlength: "40" });
  html("button", { type: "submit", class: "pl-button pl-primary" }, form, "Send");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const read = readNumber(input.value);
    if (!read) {
      const typed = input.value.trim();
      refuse(c, `${typed ? `\u201c${typed.slice(0, 40)}\u201d is not a number` : "Type a number"}`
             + ": digits with a decimal point or comma, like 0.35, \u22122 or 7/20.");
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    input.removeAttribute("aria-invalid");
    sendAnswer(q.id, read.text);
  });
}

function lineBox(c, q) {
  const box = c.ui.quiz;
  box.dataset.drawing = String(q.id);
  html("p", { class: "pl-class-how" }, box, "Tap two points on the plane, or drag from one to "
       + "the other; or type the two points (x\u2081, x\u2082) here:");
  const form = html("form", { class: "pl-class-form" }, box);
  const first = field(form, "First point", { placeholder: "e.g. 0.5, 1", maxlength: "60" });
  const second = field(form, "Second point", { placeholder: "e.g. 2, -1", maxlength: "60" });
  html("button", { type: "submit", class: "pl-button pl-primary" }, form, "Send this line");
  const points = [];
  const fmt = (v) => String(Number(v.toFixed(2)));
  const show = () => {
    const plane = planeOf();
    if (!plane) return;
    const typed = [readPoint(first.value), readPoint(second.value)].filter(Boolean);
    const apart = typed.length === 2
      && (typed[0][0] !== typed[1][0] || typed[0][1] !== typed[1][1]);
    const [w1, w2, b] = apart ? through(...typed[0], ...typed[1]) : [0, 0, 0];
    const line = [{ w: [w1, w2], b, kind: "own", points: typed }];
    const svg = drawLines(plane, line, { capture: true });
    wire(svg, plane);
  };
  const put = (i, xy) => {
    (i === 0 ? first : second).value = `${fmt(xy[0])}, ${fmt(xy[1])}`;
  };
  const wire = (svg, plane) => {
    const tap = svg.querySelector(".pl-class-tap");
    if (!tap || tap.__plWired) return;
    tap.__plWired = true;
    let down = null;
    const at = (event) => {
      const r = svg.getBoundingClientRect();
      return [plane.x(event.clientX - r.left), plane.y(event.clientY - r.top)];
    };
    tap.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      down = { xy: at(event), x: event.clientX, y: event.clientY };
    });
    tap.addEventListener("pointerup", (event) => {
      if (!down) return;
      const xy = at(event);
      const dragged = Math.hypot(event.clientX - down.x, event.clientY - down.y) > 12;
      if (dragged) {  // a drag: from where it began to where it ended
        points.length = 0;
        points.push(down.xy, xy);
      } else {
        if (points.length >= 2) points.length = 0;
        points.push(xy);
      }
      down = null;
      points.forEach((p, i) => put(i, p));
      if (points.length === 1) second.value = "";
      said(c, points.length === 2 ? "Two points: send the line, or tap again to start over."
        : "One point: tap a second one.");
      show();
    });
  };
  first.addEventListener("input", show);
  second.addEventListener("input", show);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const a = readPoint(first.value);
    const b = readPoint(second.value);
    if (!a || !b) {
      refuse(c, `${!a ? "The first point" : "The second point"} is not two numbers: type it `
             + "as x\u2081, x\u2082 with decimal points, like 0.5, 1.");
      (!a ? first : second).focus();
      return;
    }
    if (a[0] === b[0] && a[1] === b[1]) {
      refuse(c, "The two points are the same: a line needs two different points.");
      return;
    }
    sendAnswer(q.id, [...a, ...b]);  // (taken: the strip shows the answer; refused: it says why)
  });
  show();
}

// ------------------------------------------------------------------ the reveal

export function revealed(c, q) {
  const box = c.ui.quiz;
  const counts = q.counts ?? [];
  const total = counts.reduce((a, b) => a + b, 0);
  if (q.kind === "choice") {
    const most = Math.max(1, ...counts);
    const chart = html("div", { class: "pl-class-bars", role: "img" }, box);
    const words = [];
    (q.options ?? []).forEach((option, i) => {
      const right = (q.right ?? []).includes(i);
      const bar = html("div", { class: `pl-class-bar${right ? " pl-class-true" : ""}` }, chart);
      html("span", { class: "pl-class-label" }, bar, option + (right ? " \u2713" : ""));
      const track = html("span", { class: "pl-class-track" }, bar);
      const fill = html("span", { class: "pl-class-fill" }, track);
      fill.style.width = `${(100 * (counts[i] ?? 0)) / most}%`;
      html("span", { class: "pl-class-count" }, bar, String(counts[i] ?? 0));
      words.push(`${option}: ${counts[i] ?? 0}${right ? " (right)" : ""}`);
    });
    chart.setAttribute("aria-label", `The room's answers: ${words.join(", ")}`);
    html("p", { class: "pl-class-truth" }, box, `${plural(total, "answer")}.`);
  } else if (q.kind === "number") {
    const tolerance = q.tolerance && q.tolerance !== "0" ? ` \u00b1 ${q.tolerance}` : "";
    html("p", { class: "pl-class-truth" }, box, `The answer: ${q.answer}${tolerance}. `
         + `${counts[0] ?? 0} of ${plural(total, "answer")} right.`);
  } else if (q.kind === "line") {
    const plane = planeOf();
    const off = plane && q.w && !clipped(Number(q.w[0]), Number(q.w[1]), Number(q.b),
                                         plane.xr, plane.yr);
    html("p", { class: "pl-class-truth" }, box, `The boundary: ${equation(q.w?.[0], q.w?.[1], q.b)}`
         + `${off ? " (outside this plane)" : ""}. ${counts[0] ?? 0} of `
         + `${plural(total, "line")} close (${CLOSE_WORDS(q.close ?? 0.9)}).`);
    drawRoom(c, q);
  }
  const own = c.answers?.[q.id];
  if (c.role !== "lecturer" && own !== undefined && own !== "earlier") {
    html("p", {}, box, `Your answer: ${ownWords(q, own)}.`);
  }
}

// ------------------------------------------------------------------ the room's lines

export function drawRoom(c, q) {
  // the lecturer's plane: every line come so far, faint; revealed, the boundary over them.
  // A student's plane, revealed: the boundary over the student's own line
  const plane = planeOf();
  if (!plane) return;
  const lines = [];
  if (c.role === "lecturer") {
    for (const a of c.incoming ?? []) {
      const p = String(a.answer).split(" ").map(Number);
      if (p.length === 4 && p.every(Number.isFinite)) {
        const [w1, w2, b] = through(...p);
        lines.push({ w: [w1, w2], b, kind: "room" });
      }
    }
  } else if (Array.isArray(c.answers?.[q.id])) {
    const [w1, w2, b] = through(...c.answers[q.id]);
    lines.push({ w: [w1, w2], b, kind: "own" });
  }
  if (q.revealed && q.w) lines.push({ w: q.w.map(Number), b: Number(q.b), kind: "truth" });
  drawLines(plane, lines);
}

export function startIncoming(c, q) {
  if (c.incomingFor === q.id && c.incomingTimer) return;
  stopIncoming(c);
  c.incomingFor = q.id;
  c.incoming = c.incoming && c.incomingOf === q.id ? c.incoming : [];
  c.incomingOf = q.id;
  c.incomingAfter = c.incomingAfter ?? 0;
  pollIncoming(c, q);
  c.incomingTimer = setInterval(() => pollIncoming(c, q), INCOMING_MS);
}

export function stopIncoming(c) {
  clearInterval(c.incomingTimer);
  c.incomingTimer = null;
}

export function pollIncoming(c, q) {
  // the answers come since the last ask (only to a key of the lecturer's: lead.js's post)
  if (c.incomingBusy) return;
  c.incomingBusy = true;
  if (c.incomingOf !== q.id) {
    c.incoming = [];
    c.incomingAfter = 0;
    c.incomingOf = q.id;
  }
  post(c, { action: "answers", question: q.id, after: c.incomingAfter ?? 0 }).then(() => {})
    .catch(() => {}).finally(() => { c.incomingBusy = false; });
}

export function tookIncoming(c, reply) {
  // lead.js's reply to "answers": the new lines, drawn at once
  if (!reply || !Array.isArray(reply.answers)) return;
  c.incoming = [...(c.incoming ?? []), ...reply.answers];
  c.incomingAfter = reply.after ?? c.incomingAfter;
  const q = c.state?.question;
  if (q && q.kind === "line") drawRoom(c, q);
}

// ------------------------------------------------------------------ the strip's question

export function renderQuestions(c) {
  const { ui } = c;
  if (!ui.quiz) return;
  const lecturer = c.role === "lecturer";
  const q = c.state?.question ?? null;
  const ours = q && STRIP_KINDS.includes(q.kind) && !c.ended;
  offerButtons(c, !lecturer || c.ended || q !== null);
  const following = lecturer || c.mode === "follow";
  if (!ours || !following) {
    if (ui.quiz.dataset.shown) {
      ui.quiz.hidden = true;
      ui.quiz.replaceChildren();
      delete ui.quiz.dataset.shown;
      clearLines();
    }
    stopIncoming(c);
    return;
  }
  const answered = c.answers?.[q.id];
  const shown = JSON.stringify([q.id, q.revealed, answered ?? null, lecturer,
                                lecturer ? c.tally?.answered ?? 0 : 0]);
  if (q.kind === "line" && lecturer && !q.revealed) startIncoming(c, q);
  if (q.kind === "line" && q.revealed && lecturer && c.incomingRevealed !== q.id) {
    c.incomingRevealed = q.id;
    pollIncoming(c, q);  // the last lines, then the boundary over them
  }
  if (ui.quiz.dataset.shown === shown) return;
  const drawing = ui.quiz.dataset.drawing === String(q.id) && !q.revealed && answered === undefined;
  if (drawing) return;  // a student drawing: the question as it is
  ui.quiz.dataset.shown = shown;
  ui.quiz.hidden = false;
  ui.quiz.replaceChildren();
  html("p", { class: "pl-class-asks" }, ui.quiz, "The class is asked:");
  html("p", { class: "pl-class-question" }, ui.quiz, q.text ?? "");
  if (q.revealed) revealed(c, q);
  else if (lecturer) {
    const n = c.tally?.answered ?? 0;
    html("p", { class: "pl-class-wait pl-class-room" }, ui.quiz,
         `${plural(n, "answer")} so far: the answers show when you reveal them.`);
    if (q.kind === "line") drawRoom(c, q);
  } else if (answered === undefined) {
    answerBox(c, q);
    bringQuiz(c, q);
  } else {
    html("p", { class: "pl-class-wait" }, ui.quiz,
         `Your answer: ${ownWords(q, answered)}. The room's answers show when the lecturer `
         + "reveals them.");
    if (q.kind === "line" && Array.isArray(answered)) ownLine(answered);
  }
}

function bringQuiz(c, q) {
  // a new question comes into view (once): a student may be down at the plane
  if (c.broughtQuiz === q.id) return;
  c.broughtQuiz = q.id;
  bringIntoView(c.ui.quiz, "nearest");
}

function ownWords(q, answered) {
  if (answered === "earlier") return "given earlier";
  if (q.kind === "choice") return q.options?.[answered] ?? String(answered);
  if (q.kind === "line" && Array.isArray(answered)) {
    return `the line through (${answered[0]}, ${answered[1]}) and (${answered[2]}, ${answered[3]})`;
  }
  return String(answered);
}

function ownLine(answered) {
  const plane = planeOf();
  if (!plane) return;
  const [w1, w2, b] = through(...answered);
  drawLines(plane, [{ w: [w1, w2], b, kind: "own" }]);
}

function sendAnswer(question, choice) {
  window.dispatchEvent(new CustomEvent("pl-answer", { detail: { question, choice } }));
}

extensions.render.push(renderQuestions);
extensions.took.push(tookIncoming);
