// @uses strip.js
// @provides pbkdf2, prove, earnIdentity, identified, streamQuery, ticketQuery
// What a page brings to its class's routes: its join ticket (streamQuery, ticketQuery) and,
// for a student, an identity. A student's identity in a class costs its page a proof of work, once per browser (the voter
// cookie keeps it for a term): PBKDF2-HMAC-SHA-256 of "STAMP:NONCE", tried with nonce 0, 1,
// 2, ... until the result begins with the number of zero bits the server asks for
// (classroom/codes.py: work_ok; classroom/limits.py: WORK_BITS, WORK_ITERATIONS). About a
// second on a phone: the browser's own WebCrypto makes each try; a page the browser gives no
// WebCrypto (plain http to another host than this one) makes them in JavaScript, slower.

function leadingZeros(bytes) {
  let n = 0;
  for (const byte of bytes) {
    if (byte === 0) { n += 8; continue; }
    return n + Math.clz32(byte) - 24;
  }
  return n;
}

function newStamp() {
  // 18 random bytes, URL-safe base64: 24 characters, as codes.py's stamp
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

// ------------------------------------------------------------------ SHA-256 in JavaScript
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const W = new Uint32Array(64);

function compress(h, view, at) {
  // one 64-byte block of ``view`` from ``at`` into the state ``h`` (8 words)
  for (let i = 0; i < 16; i++) W[i] = view.getUint32(at + i * 4);
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15], y = W[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) >>> 0;
  }
  let [a, b, c, d, e, f, g, hh] = h;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) >>> 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
    hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

function finish(state, before, data) {
  // SHA-256 of ``before`` bytes already in ``state`` (whole blocks), then ``data``
  const blocks = Math.ceil((data.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = (before + data.length) * 8;
  view.setUint32(padded.length - 4, bits >>> 0);
  view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
  const h = new Uint32Array(state);
  for (let b = 0; b < blocks; b++) compress(h, view, b * 64);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((word, i) => outView.setUint32(i * 4, word));
  return out;
}

const sha256 = (data) => finish(IV, 0, data);

function hmacKey(key) {
  // HMAC-SHA-256's two states after its padded key: each message then costs its own blocks
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const states = [0x36, 0x5c].map((pad) => {
    const h = new Uint32Array(IV);
    compress(h, new DataView(block.map((byte) => byte ^ pad).buffer), 0);
    return h;
  });
  return (message) => finish(states[1], 64, finish(states[0], 64, message));
}

export function pbkdf2(password, salt, iterations) {
  // PBKDF2-HMAC-SHA-256, one block of 32 bytes
  const hmac = hmacKey(password);
  const first = new Uint8Array(salt.length + 4);
  first.set(salt);
  first[salt.length + 3] = 1;
  let u = hmac(first);
  const t = u.slice();
  for (let i = 1; i < iterations; i++) {
    u = hmac(u);
    for (let j = 0; j < 32; j++) t[j] ^= u[j];
  }
  return t;
}

// ------------------------------------------------------------------ the proof

async function tryOnce(subtle, text, salt, iterations) {
  if (!subtle) return pbkdf2(text, salt, iterations);
  const key = await subtle.importKey("raw", text, "PBKDF2", false, ["deriveBits"]);
  const bits = await subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations },
                                       key, 256);
  return new Uint8Array(bits);
}

export async function prove(work, subtle = globalThis.crypto?.subtle) {
  // a stamp and the first nonce that proves it at work.bits: what POST class/voter takes
  const encode = (text) => new TextEncoder().encode(text);
  const salt = encode(work.salt);
  const stamp = newStamp();
  for (let nonce = 0; ; nonce++) {
    const result = await tryOnce(subtle, encode(`${stamp}:${nonce}`), salt, work.iterations);
    if (leadingZeros(result) >= work.bits) return { stamp, nonce };
    if (!subtle && nonce % 8 === 7) await new Promise((done) => setTimeout(done, 0));
  }
}

export async function earnIdentity() {
  // this browser's identity in classes: kept in its voter cookie (HttpOnly: the page asks
  // whether it has one), made once with a proof of work
  const asked = await fetch(url("class/voter"), { cache: "no-store", credentials: "same-origin" });
  if (asked.status === 204) return;
  if (asked.status !== 401) throw Object.assign(new Error("voter"), { status: asked.status });
  const { work } = await asked.json();
  const proof = await prove(work);
  const sent = await fetch(url("class/voter"), {
    method: "POST", cache: "no-store", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(proof),
  });
  if (sent.status !== 204) throw Object.assign(new Error("voter"), { status: sent.status });
}

export function identified(c, then, failed) {
  // whether the page has its identity; if not, it is made (once at a time), then ``then``
  if (c.identified) return true;
  if (!c.identifying) {
    c.identifying = true;
    earnIdentity().then(() => {
      c.identified = true;
      c.identifying = false;
      then();
    }).catch(() => {
      c.identifying = false;
      failed();
    });
  }
  return false;
}

// ------------------------------------------------------------------ what a page brings

export function streamQuery(c, lecturer) {
  // a page's stream: following or exploring, from the last event it had; the projector's
  // with its counts (the tally ticket its key's page was given), not counted; and the page's
  // join ticket: it found the class, so its stream is never refused for others' guesses
  const query = new URLSearchParams({ mode: lecturer ? "follow" : c.mode });
  if (lecturer && c.tallyTicket) query.set("tally", c.tallyTicket);
  if (c.state) query.set("after", String(c.state.seq));
  if (c.ticket) query.set("ticket", c.ticket);
  return query;
}

export const ticketQuery = (c) => (c.ticket ? `?${new URLSearchParams({ ticket: c.ticket })}` : "");
