// Home page: one click starts a match and drops the player at the table.
import { api } from "./api.js";
import { saveSeat } from "./seats.js";

const form = document.getElementById("new-match");
const error = document.getElementById("form-error");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const button = document.getElementById("start");
  button.disabled = true;
  try {
    const made = await api("/api/matches", { method: "POST", body: { role: data.get("role"), opponent: data.get("opponent"), clock: data.get("clock") || "none" } });
    saveSeat(made.match_id, made.role, made.seat_token, made.invite_url);
    window.location.assign(`/match/${made.match_id}`);
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    button.disabled = false;
  }
});
