// Report a player from their page: a dialog with the reason and a short text (POST /api/reports;
// abusive chat also blocks them for you). A chat line's ⚑ opens this page at #report with the
// match and the line (?match=…&chat=…), so the report names that line.
import { api } from "./api.js";
import { BOOT, t } from "./i18n.js";
import { el } from "./people.js";
import { asPlayer, loadPlayer } from "./player.js";

const REASONS = ["abuse", "name", "cheating", "stalling", "other"];
const $ = (id) => document.getElementById(id);

function dialog(me, target, name, where) {
  const text = el("textarea", { id: "report-text", maxLength: 500, rows: 3 });
  const reasons = el("fieldset", { className: "report-reasons" }, el("legend", { textContent: t("report.reason") }),
    ...REASONS.map((r, i) => el("label", {}, el("input", { type: "radio", name: "reason", value: r, checked: i === (where.chat ? 0 : 1) }), ` ${t(`report.reasons.${r}`)}`)));
  const status = el("p", { className: "report-status", id: "report-status", role: "status" });
  const send = el("button", { className: "btn btn-primary", type: "submit", id: "report-send", textContent: t("report.send") });
  const cancel = el("button", { className: "btn", type: "button", textContent: t("report.cancel") });
  const form = el("form", { method: "dialog", id: "report-form" },
    el("h2", { textContent: t("report.heading", { name }) }),
    ...(where.chat ? [el("p", { className: "muted", textContent: t("report.chat_line") })] : []),
    reasons, el("label", {}, t("report.text"), text),
    el("p", { className: "muted small", textContent: t("report.abuse_blocks") }), status,
    el("div", { className: "report-buttons" }, send, cancel));
  const box = el("dialog", { className: "panel report-dialog", id: "report-dialog" }, form);
  box.setAttribute("aria-labelledby", "report-heading");
  form.firstChild.id = "report-heading";
  cancel.addEventListener("click", () => box.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { player_id: target, reason: form.elements.reason.value, text: text.value.trim() || null };
    if (where.match) body.match_id = where.match;
    if (where.chat) body.chat_id = Number(where.chat);
    send.disabled = true;
    try {
      await api("/api/reports", { method: "POST", body, headers: asPlayer(me) });
      status.textContent = t("report.sent");
      reasons.disabled = true;
      text.disabled = true;
    } catch (err) {
      status.textContent = t("report.failed", { message: err.message });
      send.disabled = false;
    }
  });
  return box;
}

function mount() {
  const slot = $("report-slot");
  const target = BOOT.player_id;
  const me = loadPlayer();
  if (!slot || !target || me?.id === target) return;
  if (!me) { slot.append(el("p", { className: "muted small", textContent: t("report.sign_in_first") })); return; }
  const query = new URLSearchParams(location.search);
  const where = { match: query.get("match"), chat: /^\d+$/.test(query.get("chat") || "") ? query.get("chat") : null };
  const open = el("button", { className: "btn btn-quiet", type: "button", id: "report-open", textContent: `⚑ ${t("report.title")}` });
  slot.append(open);
  let box = null;
  open.addEventListener("click", async () => {
    // the page may not have shown the name yet (opened at #report): ask for it then
    const name = $("profile")?.getAttribute("aria-busy") === "false" ? $("profile-name").textContent
      : await api(`/api/players/${encodeURIComponent(target)}`).then((p) => p.name, () => "");
    box ??= dialog(me, target, name, where);
    if (!box.isConnected) slot.append(box);
    box.showModal();
  });
  if (location.hash === "#report") open.click();
}

mount();
