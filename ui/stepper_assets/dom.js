// @provides html
// The page's element helper, shared by the stepper (ui/stepper.py) and the class strip
// (ui/classroom/), each of which joins this module first.

export function html(tag, attrs = {}, parent = null, text = null) {
  // an element with these attributes, its text set as text (never parsed as HTML)
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
