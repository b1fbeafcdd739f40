// @uses ../dom.js ../format.js ../wire.js ../maths.js ../stepper.js
// @provides floatsBadge, explainRun
// The step explained beside the plane: which example it visits, the maths with its numbers
// (maths.js), the verdict, and the boundary after it.

function explainStart(box, run, ownsKeys) {
  // before the first step: the boundary the run starts from
  const c = run.columns;
  html("p", {}, box).innerHTML = "<strong>Before the first step.</strong> The boundary is";
  const w = row(c.W, 0);
  const b = row(c.b, 0);
  const formula = html("div", { class: "pl-math" }, box);
  formula.innerHTML = w[0] !== 0 || w[1] !== 0 ? boundaryMath(w, b) : noBoundaryMath(b);
  html("p", {}, box, `Press Step${ownsKeys ? " (\u2192)" : ""} to visit the first example.`);
}

function perceptronVerdict({ updated, tie }) {
  // a run in floats may decide y·a within rounding of 0 as 0 (a tie, a mistake), or as above it
  const within = "y\u00b7a is within rounding of 0: the run takes it as";
  if (tie) {
    return updated ? `${within} a tie, a mistake, so the weights move.`
      : `${within} above 0: correct, no update.`;
  }
  return updated ? "y\u00b7a \u2264 0: a mistake, so the weights move."
    : "y\u00b7a > 0: correct, no update.";
}

export function floatsBadge(parent, header) {
  // a run in floats says so in words beside its maths, its reason as the badge's tooltip and
  // description; an exact run shows nothing
  if (header.exact !== false || !header.floats) return null;
  const { mark, note } = header.floats;
  return html("div", { class: "pl-floats", title: note, "aria-description": note }, parent, mark);
}

function explainStep(box, run, k, pair, example = true) {
  // (``example`` false: the maths above, another run's at the same step, named the example)
  const { header: h, columns: c } = run;
  const m = h.svm ? svmStepMath(run, k, pair) : stepMath(run, k);
  if (example) {
    const head = html("p", { class: "pl-head" }, box);
    // examples counted from 1, as the notes count them (m.i is the row, from 0)
    // with the student's names for x1 and x2 (a file's header), each beside its value
    const x = h.features
      ? `, x\u2081 (${h.features[0]}) ${eqSign([m.x[0]])} ${num(m.x[0])}, `
        + `x\u2082 (${h.features[1]}) ${eqSign([m.x[1]])} ${num(m.x[1])},`
      : ` ${named("x", m.x)},`;
    const visited = `example ${m.i + 1}${x} y = ${labelled(m.y, h.classes)}`;
    if (pair) {
      // the status line over the chart has the step and the epoch
      head.textContent = visited.charAt(0).toUpperCase() + visited.slice(1);
    } else {
      html("strong", {}, head, `Step ${(h.t0 ?? 0) + k}, epoch ${row(c.epoch, k)}`);
      head.appendChild(document.createTextNode(`: ${visited}`));
    }
  }
  const formulas = html("div", { class: "pl-math" }, box);
  formulas.innerHTML = m.lines.join("");
  html("p", { class: m.updated ? "pl-verdict pl-mistake" : "pl-verdict" }, box,
       m.verdict ?? perceptronVerdict(m));
  const w = row(c.W, k);
  // beside another run every row counts: the boundary's line only when the lines above do
  // not already show w and b after the step (the SVM's b when the hinge took no step)
  const shown = pair && (m.updated || !h.svm);
  if ((w[0] !== 0 || w[1] !== 0) && !shown) {
    const words = h.svm ? "Boundary now:" : m.updated ? "New boundary:" : "Boundary (unchanged):";
    // two runs side by side have no height to spare: the words and the line in one row
    const where = pair ? html("div", { class: "pl-math pl-boundary-now" }, box) : box;
    html(pair ? "span" : "p", {}, where, words);
    html("div", { class: "pl-math" }, where).innerHTML = boundaryMath(w, row(c.b, k));
  }
}

export function explainRun(box, run, k, pair, ownsKeys, example = true) {
  // one run's step explained in ``box``: its name over it where another run's maths are
  // beside it (a companion, layers/companion.js), with that run's count, which its status
  // line does not say; its mark of floats first, beside the name
  box.textContent = "";
  const h = run.header;
  floatsBadge(box, h);
  if (h.name && (run.companion || h.companionOf)) {
    const head = html("p", { class: "pl-run-name" }, box);
    html("strong", {}, head, h.name);
    if (h.companionOf) {
      const count = row(run.columns.mistakes, k);
      const word = h.words?.mistakes ?? "mistake";
      head.appendChild(document.createTextNode(
        ` \u00b7 ${count} ${word}${count === 1 ? "" : "s"}`));
    }
  }
  if (k === 0) {
    explainStart(box, run, ownsKeys);
  } else if (row(run.columns.index, k) < 0) {
    // a run shorter than its lesson's clock: past its end nothing is visited, and the
    // server's own sentence says how it ended
    let last = k;
    while (last > 0 && row(run.columns.index, last) < 0) last -= 1;
    const message = h.result?.message ?? "";
    html("p", { class: "pl-ended" }, box, h.svm ? message
      : `This run ended at step ${(h.t0 ?? 0) + last}: ${message}`);
  } else {
    explainStep(box, run, k, pair, example);
  }
}

LAYERS.push({
  name: "explain",
  wants: (header) => header.layers.includes("explain"),
  build: (ui) => ({ box: html("div", { class: "pl-explain" }, ui.side) }),
  load(part, run) {
    part.box.hidden = !run.header.layers.includes("explain");
  },
  draw({ box }, { run, k, pair, ownsKeys }) {
    // beside a companion's maths, as compact as a pair's: the status line has the step
    explainRun(box, run, k, pair || Boolean(run.companion), ownsKeys);
  },
});
