// A card gallery's filters, for every game's gallery: each control names the data- attribute
// its items must match ("" or an unticked box matches any), the search box matches the words an
// item carries (its name and every line it shows, in the page's language), and the count says
// how many are shown.
import { el } from "./dom.js";

/** Append an <option> per (value, label) pair to a <select>. */
export function addOptions(select, pairs) {
  for (const [value, label] of pairs) {
    const o = el("option", "", label);
    o.value = value;
    select.append(o);
  }
}

const wanted = (control) => (control.type === "checkbox" ? (control.checked ? control.value : "") : control.value);

/** Show the items of `list` that every control and the search box allow, now and on each input
 *  in `form`; `controls` maps a data- attribute (camelCase) to its <select> or checkbox. */
export function filterGallery({ form, list, controls, search, count, counted }) {
  const run = () => {
    const rules = Object.entries(controls).map(([key, control]) => [key, wanted(control)]).filter(([, value]) => value);
    const words = search.value.trim().toLowerCase();
    let shown = 0;
    for (const li of list.children) {
      const show = rules.every(([key, value]) => li.dataset[key] === value) && (!words || li.dataset.words.includes(words));
      li.hidden = !show;
      if (show) shown += 1;
    }
    count.textContent = counted(shown);
  };
  form.addEventListener("input", run);
  form.addEventListener("submit", (event) => event.preventDefault());
  run();
}
