// @provides fieldKeeps, pageKey
// The keys a page leaves alone, for every listener that takes keys from the whole page (the
// stepper's arrows, N and Home: controls.js; a clicker's PageDown and PageUp:
// ui/lecture_plan_assets/plan.js): a key pressed with Ctrl, Alt or Meta, one another listener
// took already, and a field's own (a student writing in a text box, or working a select's or a
// widget's own arrows).

export function fieldKeeps(target) {
  // whether ``target`` keeps its keys: a text box, a select, a widget's slider or menu, an
  // editable element; not a button, a box to tick, or the stepper's own slider (whose keys
  // step the run as the page's do)
  if (!(target instanceof Element)) return false;
  if (target.closest(".pl-stepper") && target.classList.contains("pl-slider")) return false;
  if (target.isContentEditable || target.closest("textarea, select, [role=combobox], [role=listbox], [role=slider], [role=menu]")) return true;
  if (target.tagName === "INPUT") {
    const type = (target.getAttribute("type") || "text").toLowerCase();
    return !["checkbox", "radio", "button", "submit", "reset", "range"].includes(type);
  }
  return false;
}

export function pageKey(event) {
  // whether the page may take this key press (Shift is part of a key: "N")
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return false;
  return !fieldKeeps(event.target);
}
