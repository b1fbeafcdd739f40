// @uses format.js
// @provides halfEven, exactOf, weightInts, activationInts, exactScores, signOf, turnOf,
// @provides exactActivations, movedWords, TURN_TIE
// An exact run's decisions, taken on integers as the server takes them (core/decimals.py).
// The header's scale {x: kx, w: kw} says that X times 10^kx and every w and b times 10^kw are
// integers (ui/stepper.py's exact_scale checked it): a = w.x + b is then the integer
// A = Wi.Xi + Bi 10^kx over 10^(kx + kw), and every sign, tie, count and comparison the page
// shows is A's or a product of Wi's, exact. The integers are Numbers while every product and
// sum stays below 2^53, BigInts beyond. A run in floats (no scale) decides in floats, as its
// server did; its numbers are marked ≈.

const TWO53 = 2 ** 53;
const POWERS = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));  // exact doubles

export function halfEven(value) {
  // numpy's np.round to an integer: half to even (the server's integers are these)
  const floor = Math.floor(value);
  const rest = value - floor;
  return rest > 0.5 || (rest === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
}

const exactRuns = new WeakMap();

export function exactOf(run) {
  // the run's integers (X's, and how large w's get), or null for a run in floats
  const { header: h, columns: c } = run;
  if (!h.scale || !c.W) return null;
  if (exactRuns.has(c)) return exactRuns.get(c);
  const { x: kx, w: kw } = h.scale;
  const X = c.X.values;
  const D = c.X.width;
  const Xi = new Float64Array(X.length);
  let xTop = 0;
  for (let j = 0; j < X.length; j++) {
    Xi[j] = halfEven(X[j] * POWERS[kx]);
    xTop = Math.max(xTop, Math.abs(Xi[j]));
  }
  let wTop = 0;
  let bTop = 0;
  for (const v of c.W.values) wTop = Math.max(wTop, Math.abs(halfEven(v * POWERS[kw])));
  for (const v of c.b.values) bTop = Math.max(bTop, Math.abs(halfEven(v * POWERS[kw])));
  const ex = {
    kx, kw, D, Xi, unitX: POWERS[kx], unit: POWERS[kx + kw] ?? 10 ** (kx + kw),
    // a's integer: products of Xi and Wi, summed; w's turn: products of two Wi's
    big: xTop * wTop * D + bTop * POWERS[kx] >= TWO53,
    bigTurn: 2 * wTop * wTop >= TWO53,
  };
  if (ex.big) ex.XiBig = Array.from(Xi, (v) => BigInt(v));
  exactRuns.set(c, ex);
  return ex;
}

export function weightInts(ex, w, b) {
  // w and b times 10^kw, integers
  const s = POWERS[ex.kw];
  return { w: w.map((v) => halfEven(v * s)), b: halfEven(b * s) };
}

export function activationInts(ex, w, b) {
  // i -> A_i = Wi.Xi_i + Bi 10^kx, a_i times 10^(kx + kw), exactly (a Number or a BigInt)
  const { w: wi, b: bi } = weightInts(ex, w, b);
  const D = ex.D;
  if (ex.big) {
    const wb = wi.map((v) => BigInt(v));
    const bb = BigInt(bi) * BigInt(ex.unitX);
    const Xb = ex.XiBig;
    return (i) => {
      let sum = bb;
      for (let j = 0; j < D; j++) sum += wb[j] * Xb[i * D + j];
      return sum;
    };
  }
  const Xi = ex.Xi;
  const bx = bi * ex.unitX;
  return (i) => {
    let sum = bx;
    for (let j = 0; j < D; j++) sum += wi[j] * Xi[i * D + j];
    return sum;
  };
}

export function exactScores(run, w, b) {
  // for geometry.js's margins and describeBoundary: a_i's exact integer and its unit, or
  // null (a run in floats)
  const ex = exactOf(run);
  return ex ? { a: activationInts(ex, w, b), unit: ex.unit } : null;
}

export function signOf(value) {
  // -1, 0 or 1, of a Number or a BigInt
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

// A run in floats cannot tell a cross product within rounding of 0 from 0: its w after the
// update is rounded in each coordinate, which moves w_before x w_after by up to about
// eps (|p0 q1| + |p1 q0|). Within TURN_TIE of those terms it decides no turn (core.decimals.TIE)
export const TURN_TIE = 16 * Number.EPSILON;

export function turnOf(run, wb, wa) {
  // how w moved from wb to wa: {kind, way}; kind "turn" (way +1 anticlockwise, -1 clockwise),
  // "from0" (w had no direction), "to0" (w became 0), "none" (0 before and after), "same" (w
  // did not change at all), "kept" (w kept its direction, only its length changed) or "flip" (a
  // half turn: w now points the other way). Exact on an exact run (integers); in floats
  // otherwise, where a cross product within rounding of 0 is no turn and says so (near: true):
  // the floats cannot tell which way, if any, w turned.
  const ex = exactOf(run);
  let p = wb;
  let q = wa;
  if (ex) {
    const s = POWERS[ex.kw];
    p = wb.map((v) => halfEven(v * s));
    q = wa.map((v) => halfEven(v * s));
    if (ex.bigTurn) {
      p = p.map((v) => BigInt(v));
      q = q.map((v) => BigInt(v));
    }
  }
  let zeroBefore = signOf(p[0]) === 0 && signOf(p[1]) === 0;
  let zeroAfter = signOf(q[0]) === 0 && signOf(q[1]) === 0;
  let near = false;
  const size = (v) => Math.max(Math.abs(v[0]), Math.abs(v[1]));
  if (!ex && !(zeroBefore && zeroAfter)) {
    // in floats a w that should be 0 is often a residue of 1e-17 (w + ηyx cancelling): a w
    // within rounding of the update's own size is no direction, as far as the floats can tell
    const step = size([q[0] - p[0], q[1] - p[1]]);
    const nearBefore = !zeroBefore && size(p) <= TURN_TIE * step;
    const nearAfter = !zeroAfter && size(q) <= TURN_TIE * Math.max(size(p), step);
    near = nearBefore || nearAfter;
    zeroBefore ||= nearBefore;
    zeroAfter ||= nearAfter;
  }
  const mark = near ? { near: true } : {};
  if (zeroBefore) return { kind: zeroAfter ? "none" : "from0", way: 0, ...mark };
  if (zeroAfter) return { kind: "to0", way: 0, ...mark };
  if (p[0] === q[0] && p[1] === q[1]) return { kind: "same", way: 0 };
  const along = signOf(p[0] * q[0] + p[1] * q[1]) > 0 ? "kept" : "flip";
  if (!ex) {
    // a cross product within rounding of its terms, or an angle within rounding (a w whose 0
    // is a residue of 1e-17 turns by that much): core/quantities.py's turn, the same rule
    const cross = p[0] * q[1] - p[1] * q[0];
    if (Math.abs(cross) <= TURN_TIE * Math.max(Math.abs(p[0] * q[1]) + Math.abs(p[1] * q[0]),
                                               size(p) * size(q))) {
      return { kind: along, way: 0, near: true };
    }
    return { kind: "turn", way: Math.sign(cross) };
  }
  const cross = signOf(p[0] * q[1] - p[1] * q[0]);
  if (cross !== 0) return { kind: "turn", way: cross };
  return { kind: along, way: 0 };
}

export function exactActivations(header, columns) {
  // a = w.x + b before each step of an exact run, from its integers: A over 10^(kx + kw), one
  // correctly rounded division (|A| < 2^53, as the server checked when it left a out), which
  // is the run's own a (core.decimals.to_float); NaN where nothing is visited
  const run = { header, columns };
  const ex = exactOf(run);
  const K = header.steps;
  const D = columns.W.width;
  const a = new Float64Array(K + 1).fill(NaN);
  const index = columns.index.values;
  let at = -1;
  let score = null;
  for (let k = 1; k <= K; k++) {
    const i = index[k];
    if (i < 0) continue;
    // the weights change only at updates: their integers are made again only then
    if (at < 0 || columns.updated.values[k - 1] === 1 || k - 1 !== at) {
      score = activationInts(ex, Array.from(columns.W.values.subarray((k - 1) * D, k * D)),
                             columns.b.values[k - 1]);
    }
    at = k;
    a[k] = Number(score(i)) / ex.unit;
  }
  return a;
}

export function movedWords(moved, wa, bMoved = false) {
  // what w did on an update that did not turn it one way or the other, in words; null for a
  // turn (the question's own answer). bMoved: b changed at that update (with w the same, only
  // b moved)
  const pair = `(${wa.map((v) => num(v).replace("-", "\u2212")).join(", ")})`;
  // a float run's turn within rounding of none: no way can be named
  const rounding = !moved.near ? "" : ["kept", "flip"].includes(moved.kind)
    ? " as far as the floats can tell (any turn is within rounding)"
    : " as far as the floats can tell (what is left of it is within rounding of 0)";
  return {
    from0: `w had no direction before it${rounding}: it now points along ${pair}`,
    to0: `w became 0${rounding}: it has no direction now, and there is no boundary`,
    none: `w was 0 and is still 0${rounding}: it has no direction to turn`,
    same: bMoved ? "w did not change: only b moved" : "neither w nor b changed",
    kept: `w kept its direction${rounding}: only its length changed`,
    flip: moved.near
      ? `w turned half round${rounding}: it now points the opposite way, ${pair}`
      : `w turned half round: it now points the opposite way, ${pair}, neither anticlockwise nor clockwise`,
  }[moved.kind] ?? null;
}
