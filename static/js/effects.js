// Effects the pages start in answer to the store or the player (never from inside a render):
// the turn's sound and notification, the timers that finish the track's animations, auto-pass.

export function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  } catch { /* no audio here */ }
}

/** A system notification, only while the page is out of sight and the player allowed them. */
export function notify(text) {
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(text);  // eslint-disable-line no-new
  }
}

const LEAVE_MS = 600;  // a leaving token is gone by then even when no animation runs

/** Finishes what renderTrack() started: entering tokens grow in on the next frame, leaving
 * tokens go once their animation ends. */
export function settleTokens({ entered, left }) {
  for (const el of left) {
    el.addEventListener("animationend", () => el.remove(), { once: true });
    setTimeout(() => el.remove(), LEAVE_MS);
  }
  if (entered.length) requestAnimationFrame(() => entered.forEach((el) => el.classList.remove("tk-enter")));
}

/** R18's auto-pass, answered here after a short random delay so timing tells the opponent
 * nothing: `offered(state)` is the pass to send, or null. Rescheduled on every change of view or
 * setting, cancelled when nothing is to be passed. */
export function watchAutoPass(store, offered, send) {
  let timer = null;
  store.subscribe((s, prev) => {
    if (s.view === prev.view && s.settings === prev.settings) return;
    clearTimeout(timer);
    const pass = offered(s);
    if (pass) timer = setTimeout(() => send(pass), 700 + Math.random() * 1100);
  });
}

const FLY_MS = 1400;  // the opponent's card is gone by then even when no animation runs
const still = () => document.body.classList.contains("no-anim") || matchMedia("(prefers-reduced-motion: reduce)").matches;

/** The card the opponent just played flies in from their side of the table and fades (shown on
 * a layer above the page, so nothing shifts); skipped with the skip-animations setting or under
 * prefers-reduced-motion (the log says it either way). `make(id)` draws the card. */
export function flyCard(layer, id, make) {
  if (still() || !layer) return;
  const card = make(id);
  card.classList.add("fly");
  layer.replaceChildren(card);
  const done = () => card.remove();
  card.addEventListener("animationend", done, { once: true });
  card.onclick = done;  // dismissed by a tap
  setTimeout(done, FLY_MS);
}
