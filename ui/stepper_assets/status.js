// @uses format.js exact.js wire.js geometry.js maths.js
// @provides statusText, longestStatus, announceText, planeWords
// The words of a step. The status line over the chart: where the run is (step, epoch,
// mistakes), what the lesson counts besides (training errors, the margin), and how the run
// ends, at its end; what a screen reader hears of the step; and the plane's name.

export function statusText(run, k, pair) {
  const { header: h, columns: c } = run;
  const K = h.steps;
  const epoch = k ? row(c.epoch, k) : 0;
  const mistakes = row(c.mistakes, k);
  // beside another run the line has half the width: it says how the run ends, at its end
  let end = pair ? "" : "still learning";
  if (k === K) end = h.result.converged ? "converged" : "not converged";
  let extra = "";
  if (h.layers.includes("band") || h.layers.includes("errors")) {
    // an exact run counts and compares in its integers (exact.js), as its server does
    const w = row(c.W, k);
    const b = row(c.b, k);
    const m = margins(c.X.values, c.y.values, w, b, exactScores(run, w, b));
    if (h.layers.includes("errors")) extra += ` \u00b7 ${m.wrong} / ${c.y.values.length} training errors`;
    if (h.layers.includes("band")) {
      // a length, a float (a square root): "≈" unless it is -∞, a decision
      extra += ` \u00b7 margin ${Number.isFinite(m.margin) ? `\u2248 ${num(m.margin)}` : "\u2212\u221e"}`;
    }
  }
  const word = h.words?.mistakes ?? "mistake";
  // a window of a longer run (e.g. one period of a cycle) counts steps as the run does, t
  const where = h.t0 ? `Step ${h.t0 + k} (${k} / ${K} ${h.words?.window ?? "shown"})`
    : `Step ${k} / ${K}`;
  return `${where} \u00b7 epoch ${epoch} \u00b7 ${mistakes} ${word}${mistakes === 1 ? "" : "s"}${extra}`
    + (end ? ` \u00b7 ${end}` : "");
}

export function longestStatus(run, pair) {
  // the longest the line gets (at the start or the end), which sets its size: one line, as
  // large as the width allows
  return Math.max(...[0, run.header.steps].map((k) => statusText(run, k, pair).length));
}

// What a screen reader hears at each step (a visually hidden live region, stepper.js): not
// where the run is but what the step means, with the numbers the maths beside the chart shows.
const spoken = (value) => num(value).replace("-", "\u2212");
const spokenPair = (w) => `(${w.map(spoken).join(", ")})`;

export function announceText(run, k) {
  // and a companion's step after the run's (layers/companion.js), named, where the run has one
  const said = announceOne(run, k);
  const other = run.companion;
  if (!other || k === 0) return said;
  const name = other.header.name ?? "The other run";
  return `${said} ${name}: ${announceOne(other, k).replace(/^Step [^:]*: /, "")}`;
}

function announceOne(run, k) {
  const { header: h, columns: c } = run;
  const K = h.steps;
  const where = h.t0 ? `Step ${h.t0 + k} (${k} of ${K} ${h.words?.window ?? "shown"})`
    : `Step ${k} of ${K}`;
  if (k === 0) return `${where}: before the first step.`;
  const i = row(c.index, k);
  if (i < 0) {
    // past the run's end: how it ended, in the server's words
    return `${where}: ${h.result?.message ?? "the run has ended."}`;
  }
  if (!c.W) {
    // a kernel run keeps its alphas, not w: say which example and whether its alpha grew
    const verdict = row(c.updated, k) === 1 ? "a mistake: its \u03b1 grows by one"
      : "correct, no update";
    return `${where}: example ${i + 1}, ${verdict}.`;
  }
  // the SVM's maths show its numbers rounded to 4 places
  const shown = h.svm ? (value) => round4(value) : (value) => value;
  const ya = row(c.y, i) * row(c.activation, k);
  const tie = tieAt(run, k);
  const updated = row(c.updated, k) === 1;
  const wb = row(c.W, k - 1).map(shown);
  const wa = row(c.W, k).map(shown);
  const bb = shown(row(c.b, k - 1));
  const ba = shown(row(c.b, k));
  const is = eqSign(ya, h.exact !== false, h.svm ? 4 : undefined);
  let meaning;
  if (h.svm) {
    const threshold = tie ? "within rounding of 1, " : "";
    meaning = updated
      ? `${threshold}inside the margin: a hinge step, w turns from ${spokenPair(wb)} to ${spokenPair(wa)}`
      : `${threshold}${ya === 1 ? "on the margin" : "beyond the margin"}: only the penalty shrinks w, from ${spokenPair(wb)} to ${spokenPair(wa)}`;
  } else {
    const threshold = tie ? "within rounding of 0, taken as a tie, " : "";
    // w turns only when it has a direction before and after, and changes it (exact.js)
    const verb = turnOf(run, row(c.W, k - 1), row(c.W, k)).kind === "turn" ? "turns" : "goes";
    meaning = updated
      ? `${threshold}a mistake: w ${verb} from ${spokenPair(wb)} to ${spokenPair(wa)}`
      : `${tie ? "within rounding of 0, taken as above it, " : ""}correct, no update`;
  }
  const bias = h.bias && (updated || h.svm) && bb !== ba
    ? `, and b from ${spoken(bb)} to ${spoken(ba)}` : "";
  // examples counted from 1, as the notes count them (the wire's index is the row, from 0)
  return `${where}: example ${i + 1}, y\u00b7a ${is} ${spoken(shown(ya))}, ${meaning}${bias}.`;
}

export function planeWords(run, k) {
  // the plane's name at step k (its figure's aria-label): what it shows, in words; a kernel's
  // boundary is no line
  const { header: h, columns: c } = run;
  if (h.layers.includes("kernel")) return "The kernel perceptron's boundary over the points.";
  const name = h.svm ? "The SVM's boundary" : "The perceptron's boundary";
  const w = row(c.W, k);
  const b = row(c.b, k);
  return describeBoundary(c.X.values, c.y.values, w, b, name, exactScores(run, w, b));
}
