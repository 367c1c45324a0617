// Home page: the player's name (asked on the first visit, changeable), then one click starts a
// match and drops the player at the table.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { loadPlayer, nameProblem, namedPlayer, suggestion, withPlayer } from "./player.js";
import { problem } from "./people.js";
import { saveSeat } from "./seats.js";
import { followGame } from "./gamechoice.js";
import { startLesson } from "./lessons.js";
import { mountSeatPlan } from "./seatplan.js";

const $ = (id) => document.getElementById(id);
const form = $("new-match");
const error = $("form-error");
const nameInput = $("player-name");
const nameError = $("name-error");

function showPlayer(player) {
  $("player-prompt").textContent = player ? t("player.playing_as") : t("player.prompt");
  $("player-hint").textContent = t("player.hint");
}

function refused(err) {
  nameError.textContent = nameProblem(err);
  nameError.hidden = false;
  nameInput.focus();
}

const known = loadPlayer();
nameInput.value = known ? known.name : suggestion();
showPlayer(known);
nameInput.addEventListener("input", () => { nameError.hidden = true; });

$("save-name").addEventListener("click", async () => {
  try {
    const player = await namedPlayer(nameInput.value);
    nameInput.value = player.name;
    showPlayer(player);
    $("player-hint").textContent = t("player.saved");
  } catch (err) { refused(err); }
});

// the computer's level matters only against the computer; an earlier rules edition only for an
// unrated Watergate match (a rating is always earned under today's rules)
const showLevel = () => {
  const data = new FormData(form);
  $("level-choice").hidden = data.get("opponent") !== "bot";
  $("edition-choice").hidden = (data.get("game") || "watergate") !== "watergate" || data.get("rated") === "on";
};
form.addEventListener("change", showLevel);
// "New match" from a finished table comes back here with its game chosen (?game=nations)
const asked = new URLSearchParams(location.search).get("game");
const preset = asked && form.querySelector(`input[name="game"][value="${CSS.escape(asked)}"]`);
if (preset) preset.checked = true;
showLevel();
followGame(form, $("game-choice"));
const seatPlan = mountSeatPlan(form);

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const button = $("start");
  button.disabled = true;
  error.hidden = true;
  const base = { game: data.get("game") || "watergate", role: data.get("role"), opponent: data.get("opponent"), clock: data.get("clock") || "none", rated: data.get("rated") === "on" };
  if (base.opponent === "bot") base.level = data.get("level") || "normal";
  const edition = $("rules-version");
  if (!$("edition-choice").hidden && edition.value !== edition.dataset.current) base.rules_version = edition.value;
  const body = seatPlan(base);  // a Nations table of several seats, or with chosen difficulties
  try {
    const made = await withPlayer(nameInput.value, (headers) => api("/api/matches", { method: "POST", body, headers }));
    // every open seat's invite link (v1.2 `invites`), shown by the waiting table
    saveSeat(made.match_id, made.role, made.seat_token, made.invite_url, made.invites);
    window.location.assign(`/match/${made.match_id}`);
  } catch (err) {
    if (err.code === "invalid_name") refused(err);
    else { error.textContent = problem(err); error.hidden = false; }
    button.disabled = false;
  }
});

// the pitches' own buttons (issue 42): that game, with the choices below as they stand
document.querySelectorAll("[data-start]").forEach((button) => button.addEventListener("click", () => {
  const radio = form.querySelector(`input[name="game"][value="${CSS.escape(button.dataset.start)}"]`);
  if (radio && !radio.checked) { radio.checked = true; radio.dispatchEvent(new Event("change", { bubbles: true })); }
  form.requestSubmit();
}));

// a tutorial: a match of its own against the computer, from the lesson's deal
document.querySelectorAll("[data-lesson]").forEach((button) => button.addEventListener("click", async () => {
  const fail = $("learn-error");
  fail.hidden = true;
  button.disabled = true;
  try {
    await startLesson(button.dataset.lesson, nameInput.value);
  } catch (err) {
    if (err.code === "invalid_name") refused(err);
    else { fail.textContent = problem(err); fail.hidden = false; }
    button.disabled = false;
  }
}));
