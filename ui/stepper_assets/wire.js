// @uses exact.js
// @provides unpack, descend, row
// The run as the server sends it (ui/stepper.py's pack): the header's length (uint32, little
// endian), the JSON header, then typed columns at 8-byte aligned offsets. What the server left
// out is rebuilt here, step by step; tests/reference/wire.py rebuilds it the same way in
// Python, and this module is tested against it bit for bit.

const COLUMN_TYPES = { f8: Float64Array, f4: Float32Array, i4: Int32Array, i2: Int16Array,
                       i1: Int8Array, u1: Uint8Array };

export function unpack(bytes) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const headerLength = new DataView(buffer).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, headerLength)));
  const columns = {};
  for (const [name, [dtype, offset, length, width]] of Object.entries(header.columns)) {
    columns[name] = { values: new COLUMN_TYPES[dtype](buffer, offset, length), width };
  }
  const run = rebuild(header, columns);
  if (header.companion) {
    // another run stepped with this one (ui/stepper.py's with_companion): its own columns
    // under "companion.", the points the run's, rebuilt as a run of its own
    const own = { X: columns.X, y: columns.y };
    for (const [name, column] of Object.entries(columns)) {
      if (name.startsWith(COMPANION)) own[name.slice(COMPANION.length)] = column;
    }
    run.companion = rebuild({ ...header.companion, lecture: header.lecture, companionOf: true },
                            own);
  }
  return run;
}

const COMPANION = "companion.";

function rebuild(header, columns) {
  if (columns.updated) rebuildHeld(header, columns);
  if (header.descent) descend(header, columns);
  if (columns.updated && columns.W && !columns.activation) buildActivation(header, columns);
  if (columns.epoch_k) spreadEpochs(header, columns);
  if (header.averaged) rebuildAverages(header, columns);
  return { header, columns };
}

function rebuildHeld(header, columns) {
  // after k steps: the updates so far (the start's count added for mistakes), and the rows
  // sent only at the start and at updates, row k being the one in force after k steps
  const K = header.steps;
  const updated = columns.updated.values;
  const moves = new Int32Array(K + 1);
  for (let k = 1; k <= K; k++) moves[k] = moves[k - 1] + (updated[k] === 1 ? 1 : 0);
  if (!columns.mistakes) {
    const start = columns.mistakes0 ? columns.mistakes0.values[0] : 0;
    columns.mistakes = { values: moves.map((m) => start + m), width: 1 };
  }
  for (const name of header.held ?? []) {
    const { values, width } = columns[name];
    const full = new Float64Array((K + 1) * width);
    for (let k = 0; k <= K; k++) {
      full.set(values.subarray(moves[k] * width, (moves[k] + 1) * width), k * width);
    }
    columns[name] = { values: full, width };
  }
}

export function descend(header, columns) {
  // The SVM's W and b after every step, from their first row, as core/descent.py takes each
  // step, operation for operation (tests hold the two to the same bits,
  // tests/browser/js/test_wire.py): eta_t = eta0 / sqrt(t); w <- (1 - eta_t lam) w;
  // on a hinge step w <- w + eta_t (x y), b <- b + eta_b y (eta_b = eta_t with a bias, else
  // 0). A padded step (index -1) keeps them.
  const K = header.steps;
  const { lam, eta0 } = header.svm;
  const t0 = header.t0 ?? 0;
  const D = columns.W.width;
  const X = columns.X.values;
  const y = columns.y.values;
  const index = columns.index.values;
  const updated = columns.updated.values;
  const W = new Float64Array((K + 1) * D);
  const b = new Float64Array(K + 1);
  W.set(columns.W.values.subarray(0, D));
  b[0] = columns.b.values[0];
  for (let k = 1; k <= K; k++) {
    const i = index[k];
    const from = (k - 1) * D;
    const to = k * D;
    let bias = b[k - 1];
    for (let j = 0; j < D; j++) W[to + j] = W[from + j];
    if (i >= 0) {
      const eta = eta0 / Math.sqrt(t0 + k);
      if (lam) {
        const shrink = 1.0 - eta * lam;
        for (let j = 0; j < D; j++) W[to + j] = shrink * W[to + j];
      }
      if (updated[k] === 1) {
        for (let j = 0; j < D; j++) W[to + j] = W[to + j] + eta * (X[i * D + j] * y[i]);
        bias = bias + (header.bias ? eta : 0.0) * y[i];
      }
    }
    b[k] = bias;
  }
  columns.W = { values: W, width: D };
  columns.b = { values: b, width: 1 };
}

function buildActivation(header, columns) {
  // a = w.x + b before each step, when the server left it out: an exact run's from its
  // integers (exact.js), the run's own a; the SVM's in floats as its descent takes it
  // (core/scan.py): the margin y a = (y x, y).(w, b) summed from +0, then a = y (y a). The
  // same number as w.x + b but for its sign at 0: a zero a of an example with y = -1 is -0
  // (NaN where nothing is visited)
  if (header.scale) {
    columns.activation = { values: exactActivations(header, columns), width: 1 };
    return;
  }
  const K = header.steps;
  const { values: W, width: D } = columns.W;
  const b = columns.b.values;
  const X = columns.X.values;
  const y = columns.y.values;
  const index = columns.index.values;
  const a = new Float64Array(K + 1).fill(NaN);
  for (let k = 1; k <= K; k++) {
    const i = index[k];
    if (i < 0) continue;
    const yi = y[i];
    let margin = 0.0;
    for (let j = 0; j < D; j++) margin = margin + (X[i * D + j] * yi) * W[(k - 1) * D + j];
    margin = margin + yi * b[k - 1];
    a[k] = yi * margin;
  }
  columns.activation = { values: a, width: 1 };
}

function spreadEpochs(header, columns) {
  // the epoch after each step, sent as the steps where it changes (epoch_k) and its value
  // from each (epoch_v)
  const K = header.steps;
  const epoch = new Int32Array(K + 1);
  const at = columns.epoch_k.values;
  const value = columns.epoch_v.values;
  for (let j = 0; j < at.length; j++) epoch.fill(value[j], at[j], j + 1 < at.length ? at[j + 1] : K + 1);
  columns.epoch = { values: epoch, width: 1 };
}

function rebuildAverages(header, columns) {
  // mu / k, the mean of the weights after each of the first k visits, summed in order as
  // numpy's cumsum does: the same doubles as core.variants.running_average
  const K = header.steps;
  const W = columns.W.values;
  const b = columns.b.values;
  const Wavg = new Float64Array(W.length);
  const bavg = new Float64Array(b.length);
  let s0 = 0;
  let s1 = 0;
  let sb = 0;
  for (let k = 1; k <= K; k++) {
    s0 += W[2 * k];
    s1 += W[2 * k + 1];
    sb += b[k];
    Wavg[2 * k] = s0 / k;
    Wavg[2 * k + 1] = s1 / k;
    bavg[k] = sb / k;
  }
  columns.Wavg = { values: Wavg, width: 2 };
  columns.bavg = { values: bavg, width: 1 };
}

export function row(column, k) {
  // row k of a column: a number for a 1-D column, an array for a 2-D one
  const { values, width } = column;
  return width === 1 ? values[k] : Array.from(values.subarray(k * width, (k + 1) * width));
}
