// The match page around the table: status bar, presence, clocks, invite and spectator links,
// the final screen with its rematch row. Pure: state in, DOM patched; buttons hand their intent
// to `dispatch`.
import { clockText } from "../clock.js";
import { BOOT, roleCap, roleName, t } from "../i18n.js";
import { actionLabel, seatLabel, seatName, sideTitle } from "../labels.js";
import { SEATS, other } from "../meta.js";
import { el } from "./dom.js";
import { analysisBox } from "./analysis.js";
import { renderSummary } from "./summary.js";
import { endLinks, ratingLine, rematchRow } from "../table/end.js";

const $ = (id) => document.getElementById(id);

function ago(seconds) {
  const minutes = Math.max(0, Math.round(seconds / 60));
  return minutes < 60 ? `${minutes} min` : minutes < 2880 ? `${Math.round(minutes / 60)} h` : `${Math.round(minutes / 1440)} d`;
}

function renderPresence(box, v, page, now) {
  const who = page.spectator ? SEATS : [other(page.role)];
  const bot = !page.spectator && v.opponent === "bot";
  box.textContent = (v.presence ? who : []).map((r) => {
    const p = v.presence[r];
    const level = bot && v.players?.[r]?.level;  // the wire's word: worded in the page's language
    if (bot) return `${roleCap(r)}: ${t("names.computer")} · ${level ? t(`ui.level_${level}`) : t("names.at_table")}`;  // the computer is always there
    const state = p.online ? t("ui.online") : p.last_seen ? t("ui.last_seen", { when: ago(now / 1000 - p.last_seen) }) : t("ui.never_seen");
    return `${seatLabel(v, r)}: ${state}`;
  }).join(" · ");
  box.className = `presence ${bot || who.every((r) => v.presence?.[r]?.online) ? "on" : "off"}`;
}

/** The clocks as they stand `now`: the running one has lost the time since the view came. */
export function renderClocks(box, state, now) {
  const c = state.view?.clocks;
  box.hidden = !c;
  if (!c) return;
  const spent = now - state.receivedAt;
  box.textContent = SEATS.map((r) => {
    const left = c[r].remaining_ms - (c[r].running ? spent : 0);
    return `${c[r].running ? "▶ " : ""}${roleCap(r)} ${clockText(left)}`;
  }).join(" · ");
}

function renderFinal(final, state, page, dispatch) {
  const v = state.view;
  const me = page.role;
  final.hidden = v.status !== "finished";
  if (final.hidden) return;
  const won = v.winner === me;
  final.replaceChildren();
  const h = el("h2", null, v.winner ? (won ? t("ui.you_won") : t("ui.you_lost")) : t("ui.match_ended"));
  const p = el("p", null, v.winner ? `${t("ui.winner_is", { role: roleCap(v.winner) })}: ${t(`reasons.${v.win_reason}`)}.` : t("ui.match_ended"));
  if (v.ended_by === "host") p.textContent = t("ui.ended_by_host");
  if (v.ended_by === "abandoned") p.textContent = t("log.match_ended_abandoned");
  if (page.spectator) h.textContent = t("ui.match_ended");
  const links = endLinks(page, { replayHref: `/replay/${page.matchId}`, cls: "final-links" });
  const edition = $("rules-edition")?.cloneNode(true);  // the menu's line: the end names the rules played too
  edition?.removeAttribute("id");
  final.append(h, p, ratingLine(v, page) || "", renderSummary(v), edition || "", links);
  if (!page.spectator && v.winner) {  // aborted or abandoned matches have no rematch
    // a seat's own analysis: a token proves the seat (spectators get none)
    if (page.token && v.ended_by !== "abandoned") final.insertBefore(analysisBox(page, { label: actionLabel, replay: `/replay/${page.matchId}` }), links);
    const row = rematchRow(v, me, state.rematch.error, dispatch, (r) => seatLabel(v, r));
    if (row) links.prepend(row);  // Rematch first: the likeliest next step
  }
  final.className = `final ${won ? "won" : "lost"}`;
}

/** Everything outside the table that follows the view. */
export function renderStatus(state, page, now, dispatch) {
  const v = state.view;
  const me = page.role;
  const d = v.state.decision;
  const myMove = v.legal_actions.length > 0;
  renderPresence($("presence"), v, page, now);
  renderClocks($("clocks"), state, now);
  $("resign").hidden = page.spectator || v.status !== "active";
  const spectate = $("spectate-box");
  spectate.hidden = page.spectator || !v.spectate_path;
  if (!spectate.hidden) $("spectate-url").value = `${BOOT.link_base || location.origin}${v.spectate_path}`;
  const opponent = page.spectator ? null : seatName(v, other(me)) && seatLabel(v, other(me));
  $("whoami").textContent = page.spectator ? t("ui.spectating")
    : `${t("ui.you_are")}: ${seatLabel(v, me)} · ${t("ui.opponent_is")}: ${opponent || t(`ui.${v.opponent || "human"}`)}`;
  $("round").textContent = `${t("ui.round")} ${v.state.round}`;
  $("fingerprint").textContent = v.fairness ? v.fairness.commitment : "";
  const mine = page.role || SEATS[0];
  const named = (text, role) => (seatName(v, role) ? `${text} · ${seatName(v, role)}` : text);  // the seat labels
  const viewer = page.spectator ? null : mine;
  $("side-mine").textContent = named(sideTitle(mine, viewer), mine);
  $("side-theirs").textContent = named(sideTitle(other(mine), viewer), other(mine));
  const turn = $("turn-indicator");
  turn.textContent = v.status === "finished" ? "" : v.status === "waiting" ? t(page.inviteUrl ? "ui.waiting_opponent" : "ui.waiting_join") : myMove ? t("ui.your_turn") : page.spectator ? t("ui.to_move", { role: roleCap(d?.role) }) : t("ui.waiting_for", { role: roleName(d ? d.role : "") });  // a spectator waits for nobody
  turn.className = `turn-indicator ${myMove ? "mine" : "theirs"}`;
  turn.hidden = !turn.textContent;
  document.body.classList.toggle("my-turn", myMove);
  document.title = `${myMove ? "● " : ""}${t("ui.title")}`;
  $("favicon").href = myMove ? "/static/img/favicon-turn.svg" : "/static/img/favicon.svg";
  const invite = $("invite-box");
  invite.hidden = !(v.status === "waiting" && page.inviteUrl);
  if (!invite.hidden) $("invite-url").value = page.inviteUrl;
  renderFinal($("final"), state, page, dispatch);
}

/** The error line, the busy shade, the connection state and the settings' checkboxes. */
export function renderChrome(state, root) {
  const box = $("match-error");
  box.textContent = state.error;
  box.hidden = !state.error;
  root.classList.toggle("busy", state.busy);
  const conn = $("conn");
  if (state.conn) { conn.textContent = t(`ui.${state.conn}`); conn.className = `conn conn-${state.conn}`; }
  $("sound").checked = state.settings.sound;
  $("skip-anim").checked = state.settings.noAnim;
  $("auto-pass").checked = state.settings.autoPass;
  document.body.classList.toggle("no-anim", state.settings.noAnim);
}
