// The one element factory the renderers share: text always goes in as text, never as HTML.
// `kids`: text (strings, numbers) and elements, in order; undefined and null are left out.
export function el(tag, cls, ...kids) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const kid of kids) if (kid !== undefined && kid !== null) e.append(kid);
  return e;
}

/** A button (never a form's submit) that calls `onclick`. */
export const button = (cls, label, onclick) => Object.assign(el("button", cls, label), { type: "button", onclick });
