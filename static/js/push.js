// Turn notices by Web Push, opted into per browser: the service worker (/sw.js, scope "/") is
// registered, the browser subscribes with the server's VAPID key, and the subscription is stored
// for this browser's player; turning it off removes both. Nothing here runs until asked.
import { api } from "./api.js";
import { BOOT, t } from "./i18n.js";
import { asPlayer, loadPlayer } from "./player.js";

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function current() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/** A toggle in `button` (with `state` telling where it stands); `player()` yields the player. */
export function mountPush(button, state, player) {
  if (!button) return;
  if (!supported()) { state.textContent = t("push.unsupported"); return; }
  const show = (on) => {
    button.hidden = false;
    button.textContent = on ? t("push.disable") : t("push.enable");
    state.textContent = on ? t("push.enabled") : "";
  };
  current().then((sub) => show(Boolean(sub)), () => show(false));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const sub = await current();
      if (sub) {
        const me = loadPlayer();
        await api("/api/push/subscriptions", { method: "DELETE", body: { endpoint: sub.endpoint }, headers: asPlayer(me) }).catch(() => {});
        await sub.unsubscribe();
        show(false);
        return;
      }
      if (await Notification.requestPermission() !== "granted") return;
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const { public_key: key } = await api("/api/push/key");
      const made = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
      const body = { ...made.toJSON(), lang: BOOT.lang };
      await api("/api/push/subscriptions", { method: "POST", body, headers: asPlayer(await player()) });
      show(true);
    } catch (err) {
      state.textContent = err.message;
    } finally {
      button.disabled = false;
    }
  });
}
