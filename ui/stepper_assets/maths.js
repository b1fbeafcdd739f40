// @uses format.js wire.js
// @provides tieAt, boundaryMath, noBoundaryMath, stepMath, round4, svmStepMath
// The maths of a step written out with its numbers, in MathML (native in every browser, about
// a millisecond a step): the same lines, with the same numbers, as the LaTeX that
// tests/reference/maths.py writes for the perceptron and lessons.svm.figures.svm_step_lines for the SVM.
// num() comes from format.js.

const mn = (value) => `<mn>${num(value).replace("-", "\u2212")}</mn>`;
// MathML Core has no mathvariant="bold": bold letters are their own code points
const BOLD = { w: "\u{1D430}", x: "\u{1D431}", 0: "\u{1D7CE}" };
const mi = (name, bold = false) => `<mi>${bold ? BOLD[name] : name}</mi>`;
const mo = (op) => `<mo>${op}</mo>`;
const paren = (inner) => `${mo("(")}${inner}${mo(")")}`;
const vec = (values) => paren(values.map(mn).join(mo(",")));
const signed = (value) => (value < 0 ? `${mo("\u2212")}${mn(-value)}` : `${mo("+")}${mn(value)}`);
// A line of maths is a row of chunks, each its own <math>, that break between them, before
// an "=" or an arrow, as a typesetter breaks a long display (MathML itself never wraps);
// continued rows hang indented. A chunk that would still be wider than the column is set
// smaller: its width estimated from its characters (--pl-chunk, in em), the column's from
// CSS container units, so that a step costs no measuring.
const chunkEm = (chunk) => (0.62 * chunk.replace(/<[^>]*>/g, "").replace(/&[a-z]+;/g, "x")
  .length).toFixed(1);
// A chunk that only substitutes the numbers between a line's formula and its result (subst)
// is marked so: where the column has no height to spare, the page shows the formula and the
// result (stepper.css: a companion's maths on a 4:3 projector).
const subst = (chunk) => ({ subst: chunk });
const math = (...chunks) => `<div class="pl-line">${
  chunks.map((chunk) => {
    const inner = chunk.subst ?? chunk;
    const mark = chunk.subst === undefined ? "" : ' class="pl-subst"';
    return `<math${mark} style="--pl-chunk: ${chunkEm(inner)}"><mrow>${inner}</mrow></math>`;
  }).join(" ")}</div>`;
// A line's signs follow one rule (format.js's chainSigns): the "=" before its numbers only
// where every number substituted is written as it is, the "=" before its result only where the
// result is too. A run in floats (header.exact false) writes its own numbers with "≈" (its
// data and settings stand for their decimals); an exact run's are "=" only where written as
// they are (0.123457 × 0.654321 has twelve places, written in six). A step it decided within
// rounding of its threshold (the column tie) says so with "≈" too
const signs = (h, given, computed, result, places) => chainSigns(given, computed, result,
  h.exact !== false, places).map(mo);
export function tieAt(run, k) {
  // step k decided within rounding of its threshold: the server's tie column, or (a run in
  // floats, whose a the page may sum in another order than the run did) a printed y·a on the
  // other side of the threshold from the step's decision
  const { header: h, columns: c } = run;
  if (Boolean(c.tie) && row(c.tie, k) === 1) return true;
  if (h.exact !== false) return false;
  const i = row(c.index, k);
  const ya = row(c.y, i) * row(c.activation, k);
  const updated = row(c.updated, k) === 1;
  if (h.svm) return updated ? ya >= 1 : ya < 1;
  return updated ? ya > 0 : ya <= 0;
}
const sub = (name, i) => `<msub>${mi(name)}<mn class="pl-sub">${i}</mn></msub>`;

export function boundaryMath(w, b) {
  // w1 x1 + w2 x2 + b = 0 (tests/reference/maths.py's boundary_equation), "≈ 0" where a number
  // written is rounded
  return math(`${mn(w[0])}${sub("x", 1)}${signed(w[1])}${sub("x", 2)}${signed(b)}`,
              `${mo(eqSign([w[0], w[1], b]))}<mn>0</mn>`);
}

export function noBoundaryMath(b) {
  // w = 0: no boundary yet, and what every a is; the words in running text, not in <mtext>:
  // they wrap
  return `<math>${mi("w", true)}${mo("=")}${mi("0", true)}</math>: no boundary `
    + `yet (every <math>${mi("a")}${mo(eqSign(b))}${mn(b)}</math>)`;
}

export function stepMath(run, k) {
  // the perceptron's step k (tests/reference/maths.py's step_lines): a, y a, and the update
  const { header: h, columns: c } = run;
  const i = row(c.index, k);
  const x = row(c.X, i);
  const y = row(c.y, i);
  const wb = row(c.W, k - 1);
  const bb = row(c.b, k - 1);
  const wa = row(c.W, k);
  const ba = row(c.b, k);
  const a = row(c.activation, k);
  const updated = row(c.updated, k) === 1;
  const eta = h.eta;
  const tie = tieAt(run, k);
  // the weights before the run's first step are its start, a setting (a window of a longer
  // run, t0, starts from the run's own)
  const start = k === 1 && !h.t0;
  const [wGiven, wComputed] = start ? [[wb, h.bias ? bb : 0], []] : [[], [wb, h.bias ? bb : 0]];
  const [aIs, aSum] = signs(h, [x, ...wGiven], wComputed, a);
  // the sum's terms are chunks of their own: a narrow column breaks the line between them
  const terms = wb.map((wi, j) => `${j ? mo("+") : aIs}${paren(mn(wi))}${paren(mn(x[j]))}`);
  if (h.bias) terms.push(signed(bb));
  const [yaIs, yaProduct] = signs(h, [y], [a], y * a);
  const lines = [
    math(`${mi("a")}${mo("=")}${mi("w", true)}${mo("\u00b7")}${mi("x", true)}${mo("+")}${mi("b")}`,
         ...terms, `${aSum}${mn(a)}`),
    math(`${mi("y")}${mi("a")}${yaIs}${paren(mn(y))}${paren(mn(a))}`,
         `${yaProduct}${mn(y * a)}${tie ? mo("\u2248") : updated ? mo("\u2264") : mo("&gt;")}<mn>0</mn>`),
  ];
  if (updated) {
    const [wIs, wSum] = signs(h, [eta, y, x, ...wGiven.slice(0, 1)], wComputed.slice(0, 1), wa);
    lines.push(math(`${mi("w", true)}${mo("\u2190")}${mi("w", true)}${mo("+")}${mi("\u03b7")}${mi("y")}${mi("x", true)}`,
                    `${wIs}${vec(wb)}`, `${mo("+")}${paren(mn(eta))}${paren(mn(y))}${vec(x)}`,
                    `${wSum}${vec(wa)}`));
    if (h.bias) {
      const [bIs, bSum] = signs(h, [eta * y, ...wGiven.slice(1)], wComputed.slice(1), ba);
      lines.push(math(`${mi("b")}${mo("\u2190")}${mi("b")}${mo("+")}${mi("\u03b7")}${mi("y")}`,
                      `${bIs}${mn(bb)}${signed(eta * y)}`, `${bSum}${mn(ba)}`));
    }
  }
  return { i, x, y, updated, tie, lines };
}

export function round4(value) {
  // numpy's np.round(value, 4): scale, round half to even, scale back
  const scaled = value * 1e4;
  const floor = Math.floor(scaled);
  const rest = scaled - floor;
  const whole = rest > 0.5 || (rest === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
  return whole / 1e4;
}

export function svmStepMath(run, k, pair) {
  // the SVM's step k (lessons.svm.figures.svm_step_lines, its numbers rounded to 4 places as it rounds
  // them): the hinge's subgradient step with step size eta_t = eta_0 / sqrt(t) and the
  // penalty's shrink; beside another run (pair) the two short lines share a row
  const { header: h, columns: c } = run;
  const { lam, eta0 } = h.svm;
  const i = row(c.index, k);
  const x = row(c.X, i);
  const y = row(c.y, i);
  // the weights as the run has them, and as the page writes them (to 4 places)
  const [Wb, Wa, Bb, Ba] = [row(c.W, k - 1), row(c.W, k), row(c.b, k - 1), row(c.b, k)];
  const [wb, wa, bb, ba] = [Wb.map(round4), Wa.map(round4), round4(Bb), round4(Ba)];
  const a = row(c.activation, k);
  const updated = row(c.updated, k) === 1;
  const eta = eta0 / Math.sqrt(k);
  const is = (given, computed, result) => signs(h, given, computed, result, 4);
  const tie = tieAt(run, k);
  const shrink = paren(mn(round4(1 - eta * lam)));
  const w = mi("w", true);
  const etaT = `<msub>${mi("\u03b7")}${mi("t")}</msub>`;
  const [, aIs] = is([], [], a);
  const activation = [
    `${mi("a")}${mo("=")}<msup>${w}${mi("\u22a4")}</msup>${mi("x", true)}${mo("+")}${mi("b")}`,
    `${aIs}${mn(round4(a))}`];
  const [yaIs, yaProduct] = is([y], [a], y * a);
  const margin = [`${mi("y")}${mi("a")}${yaIs}${paren(mn(y))}${paren(mn(round4(a)))}`,
                  `${yaProduct}${mn(round4(y * a))}${tie ? mo("\u2248") : updated ? mo("&lt;") : y * a === 1 ? mo("=") : mo("\u2265")}<mn>1</mn>`];
  activation[1] += pair ? mo(",") : "";
  const [etaIs, etaValue] = is([eta0, k], [], eta);
  const lines = [
    ...(pair ? [math(...activation, ...margin)] : [math(...activation), math(...margin)]),
    math(`${etaT}${mo("=")}<msub>${mi("\u03b7")}<mn class="pl-sub">0</mn></msub>${mo("/")}`
         + `<msqrt>${mi("t")}</msqrt>`,
         subst(`${etaIs}${mn(eta0)}${mo("/")}<msqrt>${mn(k)}</msqrt>`), `${etaValue}${mn(round4(eta))}`),
  ];
  const decay = `${w}${mo("\u2190")}${paren(`<mn>1</mn>${mo("\u2212")}${etaT}${mi("\u03bb")}`)}${w}`;
  if (updated) {
    const [wIs, wSum] = is([y, x], [1 - eta * lam, Wb, eta], Wa);
    lines.push(math(`${decay}${mo("+")}${etaT}${mi("y")}${mi("x", true)}`,
                    subst(`${wIs}${shrink}${vec(wb)}`),
                    subst(`${mo("+")}${paren(mn(round4(eta)))}${paren(mn(y))}${vec(x)}`),
                    `${wSum}${vec(wa)}`));
    if (h.bias) {
      const [bIs, bSum] = is([], [Bb, eta * y], Ba);
      lines.push(math(`${mi("b")}${mo("\u2190")}${mi("b")}${mo("+")}${etaT}${mi("y")}`,
                      subst(`${bIs}${mn(bb)}${signed(round4(eta * y))}`), `${bSum}${mn(ba)}`));
    }
  } else {
    const [wIs, wValue] = is([], [1 - eta * lam, Wb], Wa);
    lines.push(math(decay, subst(`${wIs}${shrink}${vec(wb)}`), `${wValue}${vec(wa)}`));
  }
  const within = "y\u00b7a is within rounding of 1: the run takes it as";
  const verdict = tie
    ? (updated ? `${within} inside the margin, a hinge step.`
      : `${within} a tie, on the margin: only the penalty shrinks w.`)
    : updated ? "y\u00b7a < 1: the margin is violated, a hinge step."
      : y * a === 1 ? "y\u00b7a = 1: on the margin, not inside it: only the penalty shrinks w."
        : "y\u00b7a > 1: beyond the margin, only the penalty shrinks w.";
  return { i, x, y, updated, tie, lines, verdict };
}
