// The leaderboard page: rated players of one game by rating (?game=, Watergate by default: a
// rating means nothing across two games), a page of 50 at a time (?offset= in the URL).
import { api } from "./api.js";
import { el, ratingNode } from "./people.js";

const $ = (id) => document.getElementById(id);
const PAGE = 50;

async function show() {
  const query = new URLSearchParams(location.search);
  const offset = Math.max(0, Number(query.get("offset")) || 0);
  const game = query.get("game") === "nations" ? "nations" : "watergate";
  for (const tab of document.querySelectorAll("#board-games a")) {
    if (tab.dataset.game === game) tab.setAttribute("aria-current", "page");
  }
  const board = await api(`/api/leaderboard?game=${game}&limit=${PAGE}&offset=${offset}`);
  $("board-rows").replaceChildren(...board.players.map((p) => el(
    "tr", {},
    el("td", { textContent: String(p.rank) }),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.player_id)}`, textContent: p.name })),
    el("td", {}, ratingNode(p)),
    el("td", { textContent: String(p.games) }),
  )));
  $("board-empty").hidden = board.total > 0;
  $("board").hidden = board.total === 0;
  if (offset > 0) Object.assign($("board-prev"), { hidden: false, href: `?game=${game}&offset=${Math.max(0, offset - PAGE)}` });
  if (offset + PAGE < board.total) Object.assign($("board-next"), { hidden: false, href: `?game=${game}&offset=${offset + PAGE}` });
}

show();
