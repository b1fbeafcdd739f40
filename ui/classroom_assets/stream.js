// @uses strip.js lead.js work.js
// @provides connect, checkSilence, check, sync, stepped
// The class as a page follows it (ui/classroom/; the strip and its words are strip.js, a
// lecturer's posts lead.js): the class's event stream (classroom/http.py), a student
// following or exploring. A following student's page moves with every step, with no rerun;
// a newer view (another setting or lesson) asks Streamlit for one run. A press leaves the
// class view; Rejoin comes back.

const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 30000;
// the quiet hour restarts with every touch, and a lecturer not heard from for a while is
// away for its students (classroom/limits.py: LEAD_TOUCH, LEAD_QUIET)
const TOUCH_EVERY_MS = 10 * 1000;
const ASK_AGAIN_MS = 8000;  // a run asked for and not come by then is asked for again
const WATCH_EVERY_MS = 2000;
const LEAD_PATIENCE_MS = 2500;  // a lecturer's page waits this long for its own run

// ------------------------------------------------------------------ the event stream

function disconnect(c) {
  clearTimeout(c.retryTimer);
  c.retryTimer = null;
  if (c.es) c.es.close();
  c.es = null;
}

export function connect(c) {
  disconnect(c);
  if (c.ended) return;
  const lecturer = c.role === "lecturer";
  // a student's stream needs this browser's identity, made once (work.js): then the stream
  if (!lecturer && !identified(c, () => connect(c), () => diagnose(c))) return;
  const es = new EventSource(url(`class/${c.code}/events?${streamQuery(c, lecturer)}`));
  c.es = es;
  c.heard = performance.now();
  const heard = () => { if (c.es === es) c.heard = performance.now(); };
  es.addEventListener("open", () => {
    heard();
    c.retries = 0;
    if (c.offline) { c.offline = false; render(c); }
  });
  es.addEventListener("beat", heard);
  es.addEventListener("lead", (event) => {  // the lecturer's page went quiet, or is back
    heard();
    c.leadAway = !JSON.parse(event.data).here;
    render(c);
  });
  es.addEventListener("store", (event) => {  // the class's store went away, or came back
    heard();
    c.storeAway = !JSON.parse(event.data).ok;
    render(c);
    if (!c.storeAway && c.role === "lecturer") check(c);  // back, but with the class?
  });
  es.addEventListener("state", (event) => { heard(); onState(c, JSON.parse(event.data)); });
  es.addEventListener("tally", (event) => {
    heard();
    c.tally = JSON.parse(event.data);
    render(c);
  });
  es.onerror = () => {
    if (c.es !== es) return;
    c.offline = true;
    render(c);
    // EventSource retries a dropped connection by itself; a refusal (an HTTP error) ends it
    if (es.readyState === EventSource.CLOSED) diagnose(c);
  };
}

export function checkSilence(c) {
  // the server beats every few seconds: a stream quiet for much longer died without a word
  // (a phone moved to another access point; no "offline" event, no error, for minutes)
  if (!c.es || c.ended || performance.now() - c.heard <= c.silentMs) return;
  c.offline = true;
  render(c);
  connect(c);  // from the last event seen
}

function diagnose(c) {
  // why the stream was refused: 410 the class is over; 404 its store lost it (the lecturer's
  // page gives it back; a student's waits for that); 429/503 wait, longer each time; 401 its
  // identity is gone (a cleared cookie): the next try asks for it again
  disconnect(c);
  c.identified = false;
  fetch(url(`class/${c.code}${ticketQuery(c)}`), { cache: "no-store" }).then((r) => {
    if (r.status === 410) over(c);
    else {
      if (r.status === 404) lost(c);
      retryLater(c);
    }
  }).catch(() => retryLater(c));
}

export function check(c) {
  // the store is back: a lecturer's page looks whether it kept the class, and gives it back
  // if not
  fetch(url(`class/${c.code}${ticketQuery(c)}`), { cache: "no-store" }).then((r) => {
    if (r.status === 410) over(c);
    else if (r.status === 404) lost(c);
  }).catch(() => {});
}

function lost(c) {
  c.lost = true;
  render(c);
  if (c.role === "lecturer") recover(c);
}

function retryLater(c) {
  const wait = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (c.retries ?? 0));
  c.retries = (c.retries ?? 0) + 1;
  c.retryTimer = setTimeout(() => connect(c), wait * (0.75 + Math.random() / 2));
}

function over(c) {
  if (c.ended) return;
  c.ended = true;
  keep(c);
  disconnect(c);
  clearInterval(c.touchTimer);
  tell({ question: null });
  render(c);
}

function onState(c, st) {
  if (c.state && st.seq <= c.state.seq && !st.ended) return;  // a repeat, or one overtaken
  c.state = st;
  c.retries = 0;
  c.offline = c.storeAway = c.lost = c.leadAway = false;  // a change is the lecturer's word
  if (st.ended) {
    over(c);
    return;
  }
  sync(c, false);
  render(c);
}

export function sync(c, mounting) {
  // the page as the class wants it: a newer view asks for one run; otherwise the step and
  // the question go to the stepper (a lecturer's own steps are not sent back to it)
  const st = c.state;
  if (!st || c.ended) return;
  const lecturer = c.role === "lecturer";
  const following = lecturer || c.mode === "follow";
  if (st.view_seq !== c.viewSeq) {
    if (!following) return;
    const now = performance.now();
    if (c.behind !== st.view_seq) {
      c.behind = st.view_seq;
      c.behindSince = now;
    }
    // a lecturer's own new view arrives here before the run that made it has drawn this
    // strip: a lecturer's page waits for that run, and asks only for another device's view
    const patience = lecturer ? LEAD_PATIENCE_MS : 0;
    // asked once, and again if no run came of it
    if (now - c.behindSince >= patience
        && (c.askedView !== st.view_seq || now - c.askedAt > ASK_AGAIN_MS)) {
      c.askedView = st.view_seq;
      c.askedAt = now;
      askRun({ view_seq: st.view_seq });
    }
    return;
  }
  if (!following) return;
  const detail = { question: st.question, lecturer, answered: null, canAnswer: false };
  if (st.question) {
    detail.answered = c.answers[st.question.id] ?? null;
    detail.canAnswer = !lecturer && detail.answered === null && !st.question.revealed;
  }
  if (!lecturer) {
    detail.k = st.step;
  } else if (c.resuming || (!mounting && !c.posting && st.seq > c.ownSeq)) {
    // this page took the class's view (a reload, another device's view), or another device
    // of the lecturer's moved the class: the projector goes where the class is
    detail.k = st.step;
    c.k = c.sentK = st.step;
    if (stepperAt()) c.resuming = false;  // told; a stepper drawn later asks (pl-class-ask)
  }
  tell(detail);
  if (detail.canAnswer) bringQuestion(c, st.question);
}

export function stepped(c, k) {
  // the page's own stepper moved by a key, button, slider or Play: a lecturer's page takes
  // the class there; a student's explores
  if (c.role !== "lecturer") {
    explore(c);
    return;
  }
  // a press is made from the class's step (the stepper asked for it as it began to listen):
  // the page resumes no more, or the echo of this press's first step would move it back
  c.resuming = false;
  c.k = k;
  pushStep(c);
}

// ------------------------------------------------------------------ a student

function bringQuestion(c, q) {
  // a new question is drawn in the stepper's box, under the chart on a phone, where no one
  // looks: it comes into view (once per question); the strip's live status says it is asked
  if (c.broughtQuestion === q.id) return;
  const box = mainStepper()?.querySelector(".pl-quiz");
  if (!box || box.hidden) return;  // no stepper yet: it asks for the question when drawn
  c.broughtQuestion = q.id;
  bringIntoView(box, "center");
}

function setMode(c, mode) {
  c.mode = mode;
  c.n += 1;
  c.setStateValue("mode", { mode, n: c.n });
  connect(c);  // a stream is either following or exploring
}

function explore(c) {
  if (c.role === "lecturer" || c.ended || c.mode !== "follow") return;
  setMode(c, "explore");
  tell({ question: null });
  render(c);
}

function rejoin(c) {
  if (c.ended) return;
  if (c.synced && c.state && c.state.view_seq === c.viewSeq) {
    setMode(c, "follow");  // the same view: the step and the question, here and now
    sync(c, false);
  } else {
    c.rejoining = performance.now();  // another view: one run brings it
    askRun({ rejoin: true });
  }
  render(c);
}

function answered(c, question, choice) {
  c.answers[question] = choice;
  try {
    sessionStorage.setItem(`plab.class.${c.code}.answers`, JSON.stringify(c.answers));
  } catch (error) { /* private mode: the server still counts each browser once */ }
}

function answer(c, { question, choice }) {
  if (c.role === "lecturer" || c.ended) return;
  fetch(url(`class/${c.code}/answer`), {
    method: "POST", cache: "no-store", credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ question, choice }),
  }).then(async (r) => {
    const reply = r.status === 204 ? {} : await r.json().catch(() => ({}));
    if (r.ok) answered(c, question, choice);
    else if (r.status === 409 && /already/.test(reply.error ?? "")) answered(c, question, "earlier");
    else c.problem = `Your answer was not counted: ${reply.error ?? r.status}`;
    sync(c, false);
    render(c);
  }).catch(() => {
    c.problem = "Your answer did not reach the class; try again.";
    render(c);
  });
}

// ------------------------------------------------------------------ mounting

function create(root, data) {
  let answers = {};
  try {
    answers = JSON.parse(sessionStorage.getItem(`plab.class.${data.code}.answers`) || "{}");
  } catch (error) { answers = {}; }
  const c = { root, ui: build(root), code: data.code, mode: data.mode, n: -1, state: null,
              es: null, answers, k: null, sentK: null, ownSeq: 0, posting: false,
              ended: false, tally: null, problem: null };
  c.over = () => over(c);  // lead.js's word that the class is over
  c.onStep = (event) => stepped(c, event.detail.k);
  c.onAnswer = (event) => answer(c, event.detail);
  // a stepper drawn after this strip (a reload loads Plotly first) asks for the class's step
  c.onAsk = () => sync(c, true);
  // the device lost its network: say so; back: a new stream at once, from the last event
  // seen (a stream that outlived the loss may be dead without knowing it for minutes)
  c.onOffline = () => {
    c.offline = true;
    render(c);
  };
  c.onOnline = () => {
    if (c.ended) return;
    connect(c);
    if (c.role === "lecturer") {  // back: the class hears from this page at once
      clearTimeout(c.waitTimer);
      c.waiting = false;
      c.failures = 0;
      post(c, { action: "touch" }).catch(() => {});
      if (c.lost) recover(c);
      else pushStep(c);
    }
  };
  c.onClick = (event) => {
    const b = event.target.closest("button");
    if (!b || b.disabled) return;
    if (b === c.ui.rejoin) rejoin(c);
    else if (b.dataset.kind) ask(c, b.dataset.kind);
    else if (b === c.ui.reveal) lead(c, "reveal");
    else if (b === c.ui.close) lead(c, "close");
  };
  c.watch = setInterval(() => {  // a run asked for and lost is asked for again
    checkSilence(c);
    if (c.rejoining && performance.now() - c.rejoining > ASK_AGAIN_MS) rejoin(c);
    else if (!c.rejoining && c.state && !c.ended && c.state.view_seq !== c.viewSeq) sync(c, true);
  }, WATCH_EVERY_MS);
  window.addEventListener("pl-step", c.onStep);
  window.addEventListener("pl-answer", c.onAnswer);
  window.addEventListener("pl-class-ask", c.onAsk);
  window.addEventListener("offline", c.onOffline);
  window.addEventListener("online", c.onOnline);
  c.ui.box.addEventListener("click", c.onClick);
  return c;
}

function stop(c) {
  disconnect(c);
  clearInterval(c.touchTimer);
  clearInterval(c.watch);
  window.removeEventListener("pl-step", c.onStep);
  window.removeEventListener("pl-answer", c.onAnswer);
  window.removeEventListener("pl-class-ask", c.onAsk);
  window.removeEventListener("offline", c.onOffline);
  window.removeEventListener("online", c.onOnline);
}

function update(c, data) {
  c.role = data.role;
  c.key = data.key ?? null;
  c.display = data.display;
  c.link = data.link;
  c.silentMs = data.silent_ms;
  c.viewSeq = data.view_seq;
  c.synced = data.synced;
  c.rejoining = false;
  if (data.charter) c.charter = data.charter;  // what gives the class back (lead.js)
  c.ticket = data.ticket ?? c.ticket;  // a join ticket (classroom/codes.py), renewed
  c.tallyTicket = data.tally ?? c.tallyTicket;
  c.offers = data.asks ?? [];  // what the lecturer may ask on this page (questions.js)
  if (data.view != null) c.view = data.view;
  let reconnect = !c.es;
  if (data.n >= c.n) {  // the server's word on following, unless the page has a newer one
    reconnect = reconnect || (c.mode !== data.mode && c.n >= 0);
    c.mode = data.mode;
    c.n = data.n;
  }
  if (!data.state && !data.unavailable && !data.lost) {
    over(c);
    return;
  }
  if (data.state && (!c.state || data.state.seq > c.state.seq)) c.state = data.state;
  if (c.role === "lecturer" && data.took != null && data.took !== c.took) {
    c.took = data.took;  // this page took the class's view: the class's step is the truth
    c.resuming = true;
  }
  if (data.unavailable) c.offline = true;
  keep(c);
  if (data.lost) lost(c);
  if (c.role === "lecturer" && !c.touchTimer) {
    c.touchTimer = setInterval(() => post(c, { action: "touch" }).catch(() => {}),
                               TOUCH_EVERY_MS);
  }
  if (reconnect && !c.ended) connect(c);
  // the page's stepper is drawn by the time this runs: it takes the class's step
  setTimeout(() => {
    if (c.role === "lecturer" && !c.resuming && data.took == null) catchUp(c);
    sync(c, true);
    render(c);
  }, 0);
}

export default function (component) {
  const { parentElement: root, data } = component;
  if (data.relay) return relay(component);
  if (data.ahead) return ahead(component);
  if (data.resume) return resume(component);
  let c = root.__plClass;
  if (c && c.code !== data.code) {
    stop(c);
    c.ui.box.remove();
    c = null;
  }
  if (!c) {
    c = create(root, data);
    root.__plClass = c;
  }
  c.setStateValue = component.setStateValue;
  update(c, data);
  render(c);
  return () => {
    if (!root.isConnected) {
      stop(c);
      root.__plClass = null;
    }
  };
}
