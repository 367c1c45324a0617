// A player's page, seen by another player: follow or unfollow, challenge (the dialog, then the
// challenge's live state: the challenger is taken to the match once it is accepted), block or
// unblock. Hidden on one's own page; a browser without a player is asked for a name first.
import { api } from "./api.js";
import { listen, mountChallenges, openChallenge, problem } from "./challenges.js";
import { t } from "./i18n.js";
import { asPlayer, loadPlayer } from "./player.js";

const $ = (id) => document.getElementById(id);

export async function mountRelation(profile) {
  const me = loadPlayer();
  const panel = $("challenges-panel");
  panel.hidden = true;
  if (!me) { $("profile-no-player").hidden = false; return; }
  if (me.id === profile.player_id) return;
  const headers = asPlayer(me);
  const error = $("profile-error");
  const say = (err) => { error.textContent = problem(err); error.hidden = false; };
  let following = false, blocked = false;
  try {
    const [follows, blocks] = await Promise.all([api("/api/players/me/follows", { headers }), api("/api/players/me/blocks", { headers })]);
    following = follows.following.some((p) => p.player_id === profile.player_id);
    const follower = follows.followers.some((p) => p.player_id === profile.player_id);
    blocked = blocks.blocked.some((p) => p.player_id === profile.player_id);
    $("relation").textContent = following && follower ? t("social.friend") : follower ? t("social.follows_you") : "";
  } catch (err) { say(err); return; }
  const show = () => {
    $("follow-button").textContent = t(following ? "social.unfollow" : "social.follow");
    $("follow-button").setAttribute("aria-pressed", String(following));
    $("block-button").textContent = t(blocked ? "social.unblock" : "social.block");
    $("block-button").setAttribute("aria-pressed", String(blocked));
    $("follow-button").hidden = blocked;
    $("challenge-button").hidden = blocked;
  };
  const path = (what) => `/api/players/me/${what}/${encodeURIComponent(profile.player_id)}`;
  $("follow-button").addEventListener("click", async () => {
    error.hidden = true;
    try {
      await api(path("follows"), { method: following ? "DELETE" : "PUT", headers });
      following = !following;
      show();
    } catch (err) { say(err); }
  });
  $("block-button").addEventListener("click", async () => {
    error.hidden = true;
    if (!blocked && !window.confirm(t("social.block_confirm", { name: profile.name }))) return;
    try {
      await api(path("blocks"), { method: blocked ? "DELETE" : "PUT", headers });
      blocked = !blocked;
      following = false;
      show();
      challenges.refresh();
    } catch (err) { say(err); }
  });
  const challenges = mountChallenges(panel, { only: profile.player_id });
  $("challenge-button").addEventListener("click", () => {
    error.hidden = true;
    openChallenge(profile, (made) => challenges.remember(made));
  });
  show();
  $("profile-actions").hidden = false;
  listen(() => { challenges.refresh(); });
}
