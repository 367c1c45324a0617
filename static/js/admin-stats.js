// Admin statistics, computed by the database, and this process's health, refreshed every few seconds.
import { api } from "./api.js";
import { BOOT, t } from "./i18n.js";

const root = document.getElementById("stats");
const healthTable = document.getElementById("health-table");
const HEALTH_EVERY_MS = 5000;
const pct = (x) => (x == null ? "—" : `${(100 * x).toFixed(1)} %`);
const number = new Intl.NumberFormat(BOOT.lang);
const decimal = new Intl.NumberFormat(BOOT.lang, { maximumFractionDigits: 1 });
const ms = (x) => (x == null ? "—" : t("admin_health.ms", { value: decimal.format(x) }));
const mb = (bytes) => decimal.format(bytes / (1024 * 1024));

function row(label, value, state) {
  const tr = document.createElement("tr");
  const a = document.createElement("th");
  a.textContent = label;
  const b = document.createElement("td");
  b.textContent = value;
  if (state) b.className = `health-${state}`;  // ok | bad | off: the colour says it at a glance
  tr.append(a, b);
  return tr;
}

function table(title, pairs) {
  const section = document.createElement("section");
  const h = document.createElement("h2");
  h.textContent = title;
  const body = document.createElement("table");
  body.className = "admin-table";
  for (const [k, v] of pairs) body.append(row(k, v));
  section.append(h, body);
  return section;
}

/** "answers" / "does not answer" / "not configured" for a dependency (null: not configured). */
function answered(ok) {
  if (ok == null) return [t("admin_health.not_configured"), "off"];
  return ok ? [t("admin_health.answers"), "ok"] : [t("admin_health.silent"), "bad"];
}

function counts(byName, names = {}) {
  const entries = Object.entries(byName).filter(([, n]) => n > 0);
  if (!entries.length) return t("admin_health.none");
  return entries.map(([name, n]) => `${names[name] ?? name}: ${number.format(n)}`).join(", ");
}

function showHealth(h) {
  const minutes = (seconds) => number.format(Math.round(seconds / 60));
  const rows = [
    row(t("admin_health.readiness"), h.problem ? t("admin_health.not_ready") : t("admin_health.ready"), h.problem ? "bad" : "ok"),
    row(t("admin_health.database"), ...answered(h.ready.database)),
    row(t("admin_health.redis"), ...answered(h.ready.redis)),
  ];
  if (h.ready.subscribed != null) {
    rows.push(row(t("admin_health.fanout"), t(h.ready.subscribed ? "admin_health.yes" : "admin_health.no"), h.ready.subscribed ? "ok" : "bad"));
  }
  const lat = h.push_latency;
  const lag = h.loop_lag;
  rows.push(
    row(t("admin_health.sockets"), t("admin_health.sockets_value", { seats: number.format(h.sockets.seat), spectators: number.format(h.sockets.spectator) })),
    row(t("admin_health.matches"), number.format(h.active_matches)),
    row(t("admin_health.actions"), number.format(h.actions_last_minute)),
    row(t("admin_health.latency", { minutes: minutes(lat.window_seconds) }),
      t("admin_health.latency_value", { p50: ms(lat.p50_ms), p99: ms(lat.p99_ms), count: number.format(lat.count) })),
    row(t("admin_health.loop_lag"), t("admin_health.loop_lag_value", { last: ms(lag.last_ms), max: ms(lag.max_ms), minutes: minutes(lag.window_seconds) })),
    row(t("admin_health.cache"), t("admin_health.cache_value", { used: mb(h.cache.bytes), capacity: mb(h.cache.capacity_bytes), entries: number.format(h.cache.entries) })),
    row(t("admin_health.rate_limited"), counts(h.rate_limited, BOOT.locale.admin_health.limits)),
    row(t("admin_health.refused"), counts(h.refused_sockets)),
  );
  healthTable.replaceChildren(...rows);
}

function failed(err) {
  if (err.status === 401) window.location.assign("/admin/login");
  return err.message;
}

async function refreshHealth() {
  try {
    showHealth(await api("/api/admin/health"));
  } catch (err) {
    healthTable.replaceChildren(row(t("admin_health.failed", { message: failed(err) }), "", "bad"));
  }
}

refreshHealth();
setInterval(refreshHealth, HEALTH_EVERY_MS);

const seatName = (game, seat) => (game === "nations" ? t(`nations.seats.${seat}`) : t(`roles_cap.${seat}`));

/** One game's outcomes: each seat's wins, the first seat's win rate (the balance figure). */
function outcomes(id, g) {
  const seats = Object.keys(g.wins);
  return [
    table(`${t(`games.${id}`)}: outcomes`, [
      ["decided matches", g.decided],
      ...seats.map((seat) => [`${seatName(id, seat)} wins`, g.wins[seat]]),
      [`${seatName(id, seats[0])} win rate`, pct(g[`${seats[0]}_win_rate`])],
      ["average rounds", g.avg_rounds?.toFixed(2) ?? "—"],
      ["average duration", g.avg_duration_seconds == null ? "—" : `${(g.avg_duration_seconds / 60).toFixed(1)} min`],
    ]),
    table(`${t(`games.${id}`)}: end reasons`, Object.entries(g.end_reasons)),
  ];
}

api("/api/admin/stats").then((s) => {
  root.replaceChildren(
    ...Object.entries(s.games).flatMap(([id, g]) => outcomes(id, g)),
    table("By status (every game)", Object.entries(s.by_status)),
    table("Matches per day (every game)", s.matches_per_day.map((d) => [d.day, d.count])),
  );
}).catch((err) => { root.textContent = failed(err); });
