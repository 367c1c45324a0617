// The table chat: the view's last lines and chat frames, a box, preset phrases (sent as keys:
// each reader sees their language), a mute per browser. Lines are text, never HTML (so links
// are never clickable); a hidden line (word list) is its writer's only; ⚑ reports a line.
import { roleLabel, t } from "./i18n.js";

const MUTE_KEY = "wg.chat.muted";
const PHRASES = ["good_game", "good_luck", "thinking", "thanks"];
const KEPT = 100;  // as a view carries

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

const same = (a, b) => (a.id && b.id ? a.id === b.id : a.role === b.role && a.at === b.at && a.text === b.text);

/** A seat's word: a Watergate role, or another game's seat ("p3"). */
const seatWord = (role) => (roleLabel(role) !== role ? roleLabel(role) : t(`nations.seats.${role}`));

/** A known phrase in this reader's language, else the text as written. */
function shown(line) {
  if (line.phrase && PHRASES.includes(line.phrase)) return t(`chat.phrase_${line.phrase}`);
  return line.text;
}

/** Mount in `root`; `send(message)` goes on the socket (false: offline). */
export function mountChat(root, { spectator, send }) {
  if (!root) return { view() {}, frame() {} };
  let lines = [], v = {};
  let muted = localStorage.getItem(MUTE_KEY) === "1";
  const list = el("ol", { className: "chat-lines", id: "chat-lines" });
  list.setAttribute("aria-live", "polite");
  const mute = el("input", { type: "checkbox", id: "chat-mute", checked: muted });
  const head = el("div", { className: "chat-head" },
    el("h2", { className: "area-title", textContent: t("chat.title") }),
    el("label", { className: "toggle" }, mute, ` ${t("chat.mute")}`));
  const note = el("p", { className: "chat-note muted", id: "chat-note" });
  root.replaceChildren(head, list, note);
  if (spectator) note.textContent = t("chat.spectator");
  else {
    const input = el("input", { id: "chat-input", maxLength: 500, placeholder: t("chat.placeholder"), autocomplete: "off" });
    input.setAttribute("aria-label", t("chat.placeholder"));
    const form = el("form", { className: "chat-form", id: "chat-form" }, input,
      el("button", { className: "btn", type: "submit", textContent: t("chat.send") }));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text && send({ type: "chat", text })) input.value = "";
    });
    const phrases = el("div", { className: "chat-phrases" });
    phrases.setAttribute("aria-label", t("chat.phrases"));
    for (const key of PHRASES) {
      const button = el("button", { className: "btn btn-quiet", type: "button", textContent: t(`chat.phrase_${key}`) });
      button.dataset.phrase = key;
      button.addEventListener("click", () => send({ type: "chat", phrase: key }));
      phrases.append(button);
    }
    root.append(phrases, form);
  }

  const badge = document.getElementById("chat-new");  // unread lines
  let unread = 0, inView = false;
  new IntersectionObserver(([e]) => { inView = e.isIntersecting; if (inView && badge) { unread = 0; badge.hidden = true; } }).observe(root);

  function draw() {
    list.hidden = muted;
    if (muted) { note.textContent = t("chat.muted"); return; }
    note.textContent = spectator ? t("chat.spectator") : lines.length ? "" : t("chat.none");
    list.replaceChildren(...lines.map((line) => {
      const who = line.role !== v.role && v.players?.[line.role]?.player_id;
      return el("li", { className: `chat-line chat-${line.role}${line.hidden ? " muted" : ""}` },
        el("strong", { className: "chat-name", textContent: `${line.name} (${seatWord(line.role)})` }), " ",
        el("span", { className: "chat-text", textContent: shown(line) + (line.hidden ? ` (${t("chat.hidden")})` : "") }),
        ...(who && line.id ? [" ", el("a", { className: "chat-report", href: `/players/${who}?match=${v.match_id}&chat=${line.id}#report`, textContent: "⚑", title: t("report.title") })] : []));
    }));
    list.scrollTop = list.scrollHeight;
  }

  draw();
  mute.addEventListener("change", () => {
    muted = mute.checked;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    draw();
  });

  return {
    /** Each view: the chat as the server keeps it. */
    view(view) {
      // no chat for a person alone with the computer
      const vsBot = Object.values(view.players || {}).filter((p) => p.kind !== "bot").length < 2;
      root.hidden = vsBot;
      if (vsBot || !Array.isArray(view.chat)) return;
      v = view;
      const fresh = view.chat;
      const known = lines.length === fresh.length && lines.every((l, i) => same(l, fresh[i]));
      if (!known) { lines = fresh.slice(-KEPT); draw(); }
    },
    /** A chat frame: added once. */
    frame(msg) {
      if (msg.type !== "chat" || lines.some((l) => same(l, msg))) return;
      lines = [...lines, msg].slice(-KEPT);
      draw();
      if (badge && !inView && msg.role !== v.role) { badge.hidden = false; badge.textContent = `${t("chat.title")} · ${++unread}`; }
    },
  };
}
