// @provides SCHEME_CHECKS_MS, followScheme
// The browser's colour scheme, followed: when it changes, a stepper whose page's colours no
// longer match its drawing draws itself again (Streamlit changes its page's colours a moment
// after the browser says so: the check is made a few times over three seconds).

export const SCHEME_CHECKS_MS = [50, 250, 1000, 3000];

export function followScheme(stale, redraw) {
  // ``stale()``: whether the drawing no longer matches the page; ``redraw()``: draw it again.
  // Returns what stops it following.
  const scheme = window.matchMedia("(prefers-color-scheme: dark)");
  const onScheme = () => {
    for (const ms of SCHEME_CHECKS_MS) setTimeout(() => { if (stale()) redraw(); }, ms);
  };
  scheme.addEventListener("change", onScheme);
  return () => scheme.removeEventListener("change", onScheme);
}
