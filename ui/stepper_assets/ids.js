// @provides newId
// An id for an element the page makes (what a label's for, aria-controls or an SVG's clip
// path names): unique on the page, however many steppers, questions and charts it holds.

export const newId = (prefix = "pl") => `${prefix}-${Math.random().toString(36).slice(2)}`;
