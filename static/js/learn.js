// The rules page's "learn it" links land here: start the lesson at the step that teaches the
// topic, as this browser's player (or a new one with a suggested name).
import { BOOT } from "./i18n.js";
import { startLesson } from "./lessons.js";
import { problem } from "./people.js";
import { loadPlayer, suggestion } from "./player.js";

const status = document.getElementById("learn-status");
const again = document.getElementById("learn-again");
async function go() {
  again.hidden = true;
  try {
    await startLesson(BOOT.lesson, loadPlayer()?.name || suggestion(), BOOT.topic || null);
  } catch (err) {
    status.textContent = problem(err);
    again.hidden = false;
  }
}
again.addEventListener("click", go);
go();
