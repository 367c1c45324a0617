// A player's page: name, rating with a small chart of it over time (plain SVG), games, wins per
// role, and recent matches linking to their replays. Everything comes from the public API.
import { api } from "./api.js";
import { BOOT, roleCap, t } from "./i18n.js";
import { matchHead } from "./matchhead.js";
import { botMark } from "./botmark.js";
import { el, personName, ratingNode } from "./people.js";
import { mountRelation } from "./relation.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const GAME = "watergate";

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The rating after each rated match, as a line from the starting 1500; y scaled to the range. */
export function chart(points, start = 1500) {
  const values = [start, ...points.map((p) => p.rating)];
  const w = 600, h = 180, pad = 16, left = 56, bottom = 36;
  const lo = Math.min(...values), hi = Math.max(...values);
  const span = Math.max(hi - lo, 50);
  const x = (i) => left + (i * (w - left - pad)) / Math.max(values.length - 1, 1);
  const y = (v) => h - bottom - ((v - lo) * (h - bottom - pad)) / span;
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": t("account.profile.chart_title") });
  // both axes, named (issue 42: a line without axes said nothing of what it counts)
  root.append(svg("line", { class: "axis", x1: left, y1: h - bottom, x2: w - pad, y2: h - bottom }));
  root.append(svg("line", { class: "axis", x1: left, y1: pad, x2: left, y2: h - bottom }));
  const named = (text, attrs) => { const node = svg("text", attrs); node.textContent = text; root.append(node); };
  named(t("account.profile.chart_x"), { class: "axis-name", x: (left + w - pad) / 2, y: h - 4, "text-anchor": "middle" });
  named(t("account.profile.chart_y"), { class: "axis-name", x: 12, y: (h - bottom + pad) / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${(h - bottom + pad) / 2})` });
  named("0", { x: x(0), y: h - bottom + 16, "text-anchor": "middle" });
  if (values.length > 1) named(String(values.length - 1), { x: x(values.length - 1), y: h - bottom + 16, "text-anchor": "middle" });
  for (const v of new Set([Math.round(lo), Math.round(hi)])) {
    const label = svg("text", { x: left - 8, y: y(v) + 4, "text-anchor": "end" });
    label.textContent = String(Math.round(v));
    root.append(label);
  }
  root.append(svg("polyline", { class: "line", points: values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  values.forEach((v, i) => root.append(svg("circle", { class: "dot", cx: x(i), cy: y(v), r: 3.5 })));
  return root;
}

/** "vs Ana, Bo": each opponent who is a player links to their page (to follow or challenge). */
function opponents(list) {
  const [before, after] = t("account.profile.vs", { name: "\u0000" }).split("\u0000");
  const names = list.flatMap((o, i) => [
    ...(i ? [", "] : []),
    o.player_id ? el("a", { href: `/players/${encodeURIComponent(o.player_id)}`, textContent: personName(o) }) : personName(o),
  ]);
  return [before, ...names, after ?? ""];
}

function recentItem(p) {
  const won = p.result === "win";
  return el(
    "li", {},
    el("span", { className: won ? "result-win" : "result-loss", textContent: t(`account.profile.${won ? "win" : "loss"}`) }),
    el("span", {}, `${matchHead(p.game ?? "watergate", p.role, p.ended_at)} · ${t("account.profile.vs", { name: "" }).trim()} `, ...opponents(p.opponents?.length ? p.opponents : [p.opponent])),
    el("a", { href: `/replay/${encodeURIComponent(p.match_id)}`, textContent: t("account.profile.replay") }),
  );
}

async function show() {
  const id = BOOT.player_id;
  let found;
  try {
    found = await api(`/api/players/${encodeURIComponent(id)}`);
  } catch (err) {
    $("profile-name").textContent = t("account.profile.not_found");
    $("profile-rating").hidden = true;
    $("profile").setAttribute("aria-busy", "false");
    return;
  }
  $("profile-name").replaceChildren(found.name, ...botMark(found));
  mountRelation(found);  // follow, challenge, block
  document.title = `${found.name} · ${document.title}`;
  const rating = found.rating?.[GAME];
  if (rating) {
    $("rating-value").replaceChildren(ratingNode(rating));
    const history = await api(`/api/players/${encodeURIComponent(id)}/ratings?game=${GAME}`);
    if (history.points.length) $("rating-chart").prepend(chart(history.points));
    else $("rating-chart").replaceChildren(el("p", { className: "muted", textContent: t("account.profile.no_chart") }));
  } else {
    $("rating-value").replaceChildren(el("span", { className: "muted", textContent: t("account.profile.unrated") }));
    $("rating-chart").hidden = true;
  }
  const record = [
    [t("account.profile.games"), String(found.games)],
    [t("account.profile.wins"), String(found.wins)],
    ...Object.entries(found.roles).map(([role, r]) => [roleCap(role), t("account.profile.wins_as", { wins: r.wins, games: r.games })]),
    // issue 43: the finished share of the last 50 games (absent below 5)
    [t("reliability.label"), found.reliability == null ? t("reliability.none") : t("reliability.value", { value: found.reliability })],
  ];
  $("record").replaceChildren(...record.flatMap(([k, v]) => [el("dt", { textContent: k }), el("dd", { textContent: v })]));
  $("recent").replaceChildren(...(found.recent.length ? found.recent.map(recentItem) : [el("li", { className: "muted", textContent: t("account.profile.no_games") })]));
  $("profile").setAttribute("aria-busy", "false");
}

show();
