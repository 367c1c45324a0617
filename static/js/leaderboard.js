// The leaderboard page: rated players by rating, a page of 50 at a time (?offset= in the URL).
import { api } from "./api.js";
import { el, ratingNode } from "./people.js";

const $ = (id) => document.getElementById(id);
const PAGE = 50;

async function show() {
  const offset = Math.max(0, Number(new URLSearchParams(location.search).get("offset")) || 0);
  const board = await api(`/api/leaderboard?game=watergate&limit=${PAGE}&offset=${offset}`);
  $("board-rows").replaceChildren(...board.players.map((p) => el(
    "tr", {},
    el("td", { textContent: String(p.rank) }),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.player_id)}`, textContent: p.name })),
    el("td", {}, ratingNode(p)),
    el("td", { textContent: String(p.games) }),
  )));
  $("board-empty").hidden = board.total > 0;
  $("board").hidden = board.total === 0;
  if (offset > 0) Object.assign($("board-prev"), { hidden: false, href: `?offset=${Math.max(0, offset - PAGE)}` });
  if (offset + PAGE < board.total) Object.assign($("board-next"), { hidden: false, href: `?offset=${offset + PAGE}` });
}

show();
