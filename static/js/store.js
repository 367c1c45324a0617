// The client's state in one place: the latest view (never an older one), the pending selection,
// UI settings. Renderers read it; controllers change it; subscribers hear of every change.

/** A store of one state object; set() merges a patch and tells every subscriber. A subscriber
 * gets (state, prev), prev being the state it saw last, so a set() made by a subscriber reaches
 * every subscriber too, in order, without one of them seeing a stale state. */
export function createStore(initial) {
  let state = initial;
  let notifying = false;
  let again = false;
  const subscribers = [];

  function notify() {
    if (notifying) { again = true; return; }
    notifying = true;
    try {
      do {
        again = false;
        for (const sub of subscribers) {
          if (sub.seen === state) continue;
          const prev = sub.seen;
          sub.seen = state;
          sub.fn(state, prev);
        }
      } while (again);
    } finally { notifying = false; }
  }

  return {
    get: () => state,
    set(patch) { state = { ...state, ...patch }; notify(); },
    subscribe(fn) { subscribers.push({ fn, seen: state }); },
  };
}

export const SETTING_KEYS = { sound: "wg.sound", noAnim: "wg.noanim", autoPass: "wg.autopass", hints: "wg.hints" };

// R18's auto-pass is on unless turned off; so are hints, which only unrated matches carry
const DEFAULTS = { sound: false, noAnim: false, autoPass: true, hints: true };

export function loadSettings() {
  return Object.fromEntries(Object.entries(SETTING_KEYS).map(([name, key]) => {
    const kept = localStorage.getItem(key);
    return [name, kept === null ? DEFAULTS[name] : kept === "1"];
  }));
}

const unique = (xs) => [...new Set(xs)];

/** The pending selection (a hand card to play, a held token to pin) kept valid for `view`:
 * the only choice is selected by itself, a choice no longer offered is dropped. */
export function settlePick(view, pick) {
  const decision = view.state.decision;
  const legal = view.legal_actions || [];
  if (!decision || view.status !== "active") return pick;
  if (!legal.length) return { card: null, pin: null };
  const keep = (offered, chosen) => (offered.length === 1 ? offered[0] : offered.includes(chosen) ? chosen : null);
  if (decision.kind === "play") return { ...pick, card: keep(unique(legal.map((a) => a.card)), pick.card) };
  if (decision.kind === "pin") return { ...pick, pin: keep(unique(legal.map((a) => a.handle)), pick.pin) };
  return pick;
}

const STAGES = { waiting: 0, active: 1, finished: 2 };

/** Whether `next` is older than the view `held`: a lower version, or the same version at an
 * earlier stage of the match. A match starts (waiting -> active) without a move, so the HTTP
 * answer a page asked for before the second seat was taken can arrive after the socket's frame
 * that says the match is on; taken, it would leave the page waiting for good. */
export function overtaken(held, next) {
  if (!held) return false;
  if (next.version !== held.version) return next.version < held.version;
  return (STAGES[next.status] ?? 0) < (STAGES[held.status] ?? 0);
}

