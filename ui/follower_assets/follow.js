// @provides RETRY_FIRST_MS, RETRY_LAST_MS, readCode, displayCode, lessonOf, backoff, follow
// The follower page (ui/classroom/follower_page.py: GET /follow?class=CODE): a class followed
// with no Streamlit session. It is given the stepper (mountStepper: ui/stepper_assets/, as the
// offline export mounts it) and the class strip (mountStrip: ui/classroom_assets/, as the full
// app's strip component mounts it), and plays Streamlit's part between them: it reads the
// class (GET /class/CODE: its view, its run's digest, a join ticket), fetches the view's packed
// run (GET /class/run/DIGEST, cached by the browser for good) and draws it, and when the strip
// asks for "a run" (a newer view, a rejoin on another view) it reads the class again and draws
// its new run. What a student does (follow, step on their own, rejoin, answer) is the strip's
// and the stepper's, as on the full app's page. Every text from outside (a code as typed, a
// server's words) is set as text, never as HTML.

export const RETRY_FIRST_MS = 2000;
export const RETRY_LAST_MS = 30000;
const WATCH_EVERY_MS = 1000;
const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";  // classroom/codes.py's

export function readCode(text) {
  // the code as typed (any case, spaces or a dash between), or null (codes.normalize_code)
  const t = String(text ?? "").slice(0, 32).toUpperCase().replace(/[\s-]/g, "");
  return t.length === 8 && [...t].every((ch) => ALPHABET.includes(ch)) ? t : null;
}

export function displayCode(code) {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

export function lessonOf(view, lessons, first) {
  // the title of a view's lesson (its "lesson" parameter; none is the first lesson's)
  let name = null;
  try {
    name = new URLSearchParams(view ?? "").get("lesson");
  } catch (error) { name = null; }
  return lessons[name || first] ?? lessons[first];
}

export function backoff(tries) {
  // the wait before try number ``tries`` + 1: 2 s doubling to 30 s, jittered so that a hall's
  // pages refused together do not come back together
  return Math.min(RETRY_LAST_MS, RETRY_FIRST_MS * 2 ** tries) * (0.75 + Math.random() / 2);
}

function el(id) {
  return document.getElementById(id);
}

function url(path) {
  return new URL(path, location.href).href;
}

// ------------------------------------------------------------------ the page's own line

function say(f, text, again = null) {
  // a clear line where the strip goes (the strip's own words once it is there), and with
  // ``again``, a retry: by itself after a wait that grows, or at once by the button
  clearTimeout(f.timer);
  f.timer = null;
  f.line.hidden = !text;
  f.words.textContent = text ?? "";
  f.again.hidden = !again;
  f.retry = again;
  if (!again) return;
  const wait = backoff(f.tries);
  f.tries += 1;
  f.words.textContent = `${text} Trying again in ${Math.round(wait / 1000)} s.`;
  f.timer = setTimeout(() => {
    f.timer = null;
    again();
  }, wait);
}

function calm(f) {
  clearTimeout(f.timer);
  f.timer = null;
  f.tries = 0;
  f.line.hidden = true;
  f.again.hidden = true;
}

function refusal(r, reply, what) {
  // a server's refusal in words (its own words are outside text: set as text)
  if (r.status === 429) return `The class's server asks pages to slow down while ${what}.`;
  if (r.status >= 500) return `The class's server is busy for a moment while ${what}.`;
  return `The class's server refused this page while ${what}: ${reply.error ?? r.status}.`;
}

async function look(f, again) {
  // the class's public state (with its view and run), and a join ticket; null when there is
  // none to be had now (said, and tried again)
  const query = f.ticket ? `?ticket=${encodeURIComponent(f.ticket)}` : "";
  let r;
  try {
    r = await fetch(url(`class/${f.code}${query}`), { cache: "no-store", credentials: "same-origin" });
  } catch (error) {
    say(f, "This page cannot reach the class's server (is the network there?).", again);
    return null;
  }
  if (r.status === 410) {
    f.over = true;
    say(f, `The class ${f.display} has ended (a class ends when its lecturer ends it, or after `
      + "an hour without a word from them).");
    return null;
  }
  if (r.status === 404) {
    say(f, `No class has the code ${f.display}. Check the code on the projector.`, again);
    return null;
  }
  const reply = await r.json().catch(() => ({}));
  if (!r.ok || typeof reply !== "object" || reply === null || reply.code !== f.code) {
    say(f, refusal(r, reply, "it looked for the class"), again);
    return null;
  }
  f.ticket = r.headers.get("X-Class-Ticket") ?? f.ticket;
  return reply;
}

// ------------------------------------------------------------------ the picture

async function draw(f, digest) {
  // the view's run drawn by the stepper (or the words of a view without one); true when the
  // page shows the view as it can
  f.wanted = digest;
  if (!digest) {
    f.run = null;
    f.stepRoot.hidden = true;
    f.none.hidden = false;
    return true;
  }
  let r;
  try {
    r = await fetch(url(`class/run/${digest}`), { credentials: "same-origin" });
  } catch (error) {
    say(f, "This page cannot fetch the class's picture (is the network there?).",
        () => redraw(f, digest));
    return false;
  }
  if (!r.ok) {
    const reply = await r.json().catch(() => ({}));
    say(f, r.status === 404 ? "The server no longer has this view's picture: the lecturer's "
      + "page gives it again. Open the full app to see the view now."
      : refusal(r, reply, "it fetched the picture"), () => redraw(f, digest));
    return false;
  }
  const data = new Uint8Array(await r.arrayBuffer());
  if (f.wanted !== digest) return false;  // another view came meanwhile
  f.none.hidden = true;
  f.stepRoot.hidden = false;
  try {
    f.mountStepper({ parentElement: f.stepRoot, data, setStateValue: () => {} });
  } catch (error) {
    say(f, "This page cannot draw this view's picture: open the full app to see it.");
    return false;
  }
  f.run = digest;
  calm(f);
  return true;
}

async function redraw(f, digest) {
  if (f.wanted === digest && f.run !== digest) await draw(f, digest);
}

// ------------------------------------------------------------------ the class

function show(f, state) {
  // the page at the class's view: its lesson's title, its run, and the strip told so
  f.title.textContent = lessonOf(state.view, f.lessons, f.first);
  document.title = `${f.title.textContent} \u00b7 class ${f.display}`;
  f.viewSeq = state.view_seq;
  const drawn = state.run === f.run ? Promise.resolve(true) : draw(f, state.run);
  // the strip as the full app's page mounts it: a student's, at this view (synced)
  f.mountStrip({
    parentElement: f.stripRoot,
    data: { code: f.code, display: f.display, role: "student", mode: f.mode, n: f.n,
            view_seq: state.view_seq, synced: true, state, link: null, unavailable: false,
            lost: false, silent_ms: f.silentMs, ticket: f.ticket },
    setStateValue: (name, value) => {
      if (name === "mode" && value && typeof value.n === "number") {
        f.mode = value.mode;
        f.n = value.n;
      }
    },
  });
  return drawn;
}

async function catchUp(f, detail = {}) {
  // the strip asks for the class's view (a newer one, or a rejoin): read it and draw it
  if (f.over) return;
  if (f.busy) {
    f.pending = { ...f.pending, ...detail };
    return;
  }
  f.busy = true;
  try {
    const state = await look(f, () => catchUp(f, detail));
    if (!state) return;
    calm(f);
    if (detail.rejoin) {
      f.mode = "follow";
      f.n = Math.max(f.n, f.stripRoot.__plClass?.n ?? 0) + 1;
    }
    await show(f, state);
  } finally {
    f.busy = false;
    if (f.pending) {
      const next = f.pending;
      f.pending = null;
      catchUp(f, next);
    }
  }
}

function watch(f) {
  // a run the class names later for the same view (its lecturer's page kept it after the
  // view went out): drawn when the page follows
  const c = f.stripRoot.__plClass;
  const st = c?.state;
  if (!st || c.ended || f.busy || c.mode !== "follow" || st.view_seq !== f.viewSeq) return;
  if (st.run !== undefined && st.run !== f.wanted) draw(f, st.run);
}

function plotlyLoading() {
  // Plotly comes by a script of the page's own, fetched beside this one (neither waits for the
  // other: the class and its run are read while Plotly arrives); the stepper's loadPlotly
  // (plotly.js) takes this load rather than starting another
  if (window.Plotly || window.__plPlotlyLoading) return;
  const script = el("pl-plotly");
  // fetched and run already, yet no Plotly: it failed (the stepper's own load tries the app's)
  if (performance.getEntriesByName(script.src).some((entry) => entry.responseEnd > 0)) return;
  window.__plPlotlyLoading = new Promise((resolve, reject) => {
    script.addEventListener("load", () => resolve(window.Plotly));
    script.addEventListener("error", () => {
      window.__plPlotlyLoading = null;  // the stepper's own load tries again
      reject(new Error("plotly"));
    });
  });
}

export function follow({ mountStepper, mountStrip, lessons, first, silentMs }) {
  plotlyLoading();
  const params = new URLSearchParams(location.search);
  const typed = params.get("class") ?? "";
  const code = readCode(typed);
  const f = { code, display: code ? displayCode(code) : "", ticket: params.get("ticket"),
              lessons, first, silentMs, mountStepper, mountStrip, tries: 0, timer: null,
              run: undefined, wanted: undefined, viewSeq: null, mode: "follow", n: 0, busy: false,
              pending: null, over: false,
              title: el("pl-title"), line: el("pl-line"), words: el("pl-line-words"),
              again: el("pl-again"), none: el("pl-none"), stripRoot: el("pl-strip"),
              stepRoot: el("pl-stepper") };
  const full = el("pl-full");
  full.href = code ? `./?class=${code}` : "./";
  f.again.addEventListener("click", () => {
    if (!f.retry) return;
    clearTimeout(f.timer);
    f.timer = null;
    f.retry();
  });
  if (!code) {
    say(f, typed ? `\u201c${typed.slice(0, 20)}\u201d is not a class code: a code is 8 letters `
      + "and digits, like ABCD-EFGH (no 0, O, 1 or I). Check the code on the projector."
      : "This page follows a class: open it with the class's link or its QR code.");
    return f;
  }
  window.addEventListener("pl-class-rerun", (event) => catchUp(f, event.detail ?? {}));
  setInterval(() => watch(f), WATCH_EVERY_MS);
  catchUp(f);
  window.__plFollow = f;  // (the page's state, for its tests)
  return f;
}
