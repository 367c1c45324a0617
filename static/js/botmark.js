// A bot account's "BOT" mark (contract v1.2 "Bots"), for the pages that list players by name:
// apart from people.js, which every table loads, so the tables' script budget does not carry it.
import { t } from "./i18n.js";
import { el } from "./people.js";

/** The "BOT" mark of a bot account (contract v1.2: being a bot is public), as a list of nodes
 * to append after its name: none for a person. "BOT" is a title, as on other game sites; its
 * tooltip says in words what it means. */
export function botMark(p) {
  if (!p?.bot) return [];
  return [el("span", { className: "badge bot-mark", title: t("names.bot_account"), textContent: "BOT" })];
}
