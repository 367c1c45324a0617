// The leaderboard page: rated players of one game by rating (?game=, Watergate by default: a
// rating means nothing across two games), a page of 50 at a time (?offset= in the URL); people's
// board, or the bot accounts' own (?board=bots: bots are never ranked among people).
import { api } from "./api.js";
import { botMark } from "./botmark.js";
import { el, ratingNode } from "./people.js";

const $ = (id) => document.getElementById(id);
const PAGE = 50;

async function show() {
  const query = new URLSearchParams(location.search);
  const offset = Math.max(0, Number(query.get("offset")) || 0);
  const game = query.get("game") === "nations" ? "nations" : "watergate";
  const kind = query.get("board") === "bots" ? "bots" : "humans";
  for (const tab of document.querySelectorAll("#board-games a")) {
    if (tab.dataset.game === game) tab.setAttribute("aria-current", "page");
    tab.href = `?game=${tab.dataset.game}&board=${kind}`;
  }
  for (const tab of document.querySelectorAll("#board-kinds a")) {
    if (tab.dataset.board === kind) tab.setAttribute("aria-current", "page");
    tab.href = `?game=${game}&board=${tab.dataset.board}`;
  }
  $("board-empty").hidden = kind === "bots";
  $("board-empty-bots").hidden = kind !== "bots";
  const board = await api(`/api/leaderboard?game=${game}&board=${kind}&limit=${PAGE}&offset=${offset}`);
  $("board-rows").replaceChildren(...board.players.map((p) => el(
    "tr", {},
    el("td", { textContent: String(p.rank) }),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.player_id)}`, textContent: p.name }), ...botMark(p)),
    el("td", {}, ratingNode(p)),
    el("td", { textContent: String(p.games) }),
  )));
  $("board-empties").hidden = board.total > 0;
  $("board").hidden = board.total === 0;
  const at = (n) => `?game=${game}&board=${kind}&offset=${n}`;
  if (offset > 0) Object.assign($("board-prev"), { hidden: false, href: at(Math.max(0, offset - PAGE)) });
  if (offset + PAGE < board.total) Object.assign($("board-next"), { hidden: false, href: at(offset + PAGE) });
}

show();
