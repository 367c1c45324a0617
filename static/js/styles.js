// A stylesheet a module brings with it (one fetched on demand: the bell on a table, the coach).

/** Adds the stylesheet at `href` to the page once; resolves when it has loaded (or failed). */
export function addStyles(href) {
  const had = document.querySelector(`link[href="${href}"]`);
  if (had) return Promise.resolve();
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
  const loaded = new Promise((resolve) => { link.onload = link.onerror = resolve; });
  document.head.append(link);
  return loaded;
}
