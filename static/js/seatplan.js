// The new-match form's table of Nations (home page): how many nations (2–5), who plays each seat
// but the creator's (a person, who gets an invite link, or the computer at a level) and each
// seat's difficulty (its starting bonus; prince unless chosen). Watergate keeps its two seats and
// this part of the form stays hidden. A table of two at the default difficulties is created with
// contract v1's fields alone (the "Against" choice and its level), so it works with any server;
// anything else sends v1.2's `players`, `seats`, `levels` and `handicaps`.
import { t } from "./i18n.js";

const KINDS = ["human", "bot"];
const LEVELS = ["easy", "normal", "hard"];
const DIFFICULTIES = ["chieftain", "prince", "king", "emperor"];
const DEFAULT_DIFFICULTY = "prince";

function select(cls, values, label, chosen, text) {
  const box = document.createElement("select");
  box.className = cls;
  box.setAttribute("aria-label", label);
  for (const v of values) box.append(Object.assign(document.createElement("option"), { value: v, textContent: text(v), selected: v === chosen }));
  return box;
}

/** Wires the seat plan of `form` (#seat-plan, #players, #my-difficulty, #seat-rows); returns
 * `body(base)`, the create request's body for the form's choices. */
export function mountSeatPlan(form) {
  const $ = (id) => document.getElementById(id);
  const plan = $("seat-plan");
  const rows = $("seat-rows");
  const random = form.querySelector('input[name="role"][value="random"]');
  const data = () => new FormData(form);
  const nations = () => (data().get("game") || "watergate") === "nations";
  const count = () => Number($("players").value) || 2;
  const mine = () => { const r = data().get("role"); return r && r !== "random" ? r : null; };

  function draw() {
    plan.hidden = !nations();
    const n = count();
    // with more than two nations the creator names its seat (the others are planned by seat)
    random.closest("label").hidden = nations() && n > 2;
    if (random.closest("label").hidden && random.checked) form.querySelector('input[name="role"][value="p1"], input[name="role"]').checked = true;
    if (plan.hidden) return;
    const kept = new Map([...rows.querySelectorAll(".seat-row")].map((r) => [r.dataset.seat, {
      kind: r.querySelector(".seat-kind").value, level: r.querySelector(".seat-level").value, difficulty: r.querySelector(".seat-difficulty").value,
    }]));
    const against = data().get("opponent") || "human";
    const me = mine();
    const seats = Array.from({ length: n }, (_, i) => `p${i + 1}`).filter((s) => s !== me);
    const two = n === 2;
    $("my-difficulty").closest("label").hidden = !me;  // a random seat: every nation at the default
    rows.replaceChildren(...(me || !two ? seats : ["other"]).slice(0, two ? 1 : undefined).map((seat) => {
      const nation = seat === "other" ? t("nations.seat_open") : t(`nations.seats.${seat}`);
      const was = kept.get(seat) || {};
      const row = document.createElement("div");
      row.className = "seat-row";
      row.dataset.seat = seat;
      const name = Object.assign(document.createElement("span"), { className: "seat-name", textContent: nation });
      const kind = select("seat-kind", KINDS, t("nations.seat_kind", { nation }), two ? against : (was.kind || against), (k) => t(k === "human" ? "nations.seat_person" : "nations.seat_computer"));
      const level = select("seat-level", LEVELS, t("nations.seat_level", { nation }), was.level || "normal", (l) => t(`ui.level_${l}`));
      const difficulty = select("seat-difficulty", DIFFICULTIES, t("nations.seat_difficulty", { nation }), was.difficulty || DEFAULT_DIFFICULTY, (d) => t(`nations.difficulty_names.${d}`));
      // a table of two: "Against" and its level say who the other seat is
      kind.hidden = two;
      level.hidden = two || kind.value !== "bot";
      difficulty.hidden = seat === "other";
      kind.addEventListener("change", () => { level.hidden = kind.value !== "bot"; });
      row.append(name, kind, level, difficulty);
      return row;
    }));
  }

  form.addEventListener("change", (event) => { if (!event.target.closest("#seat-rows")) draw(); });
  draw();

  return function body(base) {
    if (!nations()) return base;
    const n = count();
    const me = mine();
    const chosen = [...rows.querySelectorAll(".seat-row")].filter((r) => r.dataset.seat !== "other").map((r) => ({
      seat: r.dataset.seat,
      kind: n === 2 ? base.opponent : r.querySelector(".seat-kind").value,
      level: n === 2 ? base.level || "normal" : r.querySelector(".seat-level").value,
      difficulty: r.querySelector(".seat-difficulty").value,
    }));
    const handicaps = Object.fromEntries(chosen.map((c) => [c.seat, c.difficulty]));
    if (me) handicaps[me] = $("my-difficulty").value;
    if (n === 2 && Object.values(handicaps).every((d) => d === DEFAULT_DIFFICULTY)) return base;  // v1 says it all
    const bots = chosen.filter((c) => c.kind === "bot");
    const out = { ...base, players: n, seats: Object.fromEntries(chosen.map((c) => [c.seat, c.kind])), handicaps };
    if (bots.length) out.levels = Object.fromEntries(bots.map((c) => [c.seat, c.level]));
    out.opponent = chosen.some((c) => c.kind === "human") ? "human" : "bot";  // v1's summary of the others
    if (out.opponent === "bot") out.level = bots[0].level; else delete out.level;
    return out;
  };
}
