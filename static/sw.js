// The service worker of turn notices and of the bell's Web Push notices (issue 43): a push
// (encrypted by the server, decrypted by the browser) becomes a notification; clicking it
// focuses the tab of its page (a table, the people page, ...), or opens it.
self.addEventListener("push", (event) => {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch { notice = {}; }
  if (notice.type !== "turn" && notice.type !== "notification") return;
  event.waitUntil(self.registration.showNotification(notice.title || "Watergate", {
    body: notice.body || "",
    // one notice per match: a newer turn replaces the older; each bell line its own (issue 43)
    tag: notice.type === "turn" ? `turn-${notice.match_id}` : `bell-${notice.id}`,
    icon: "/static/img/favicon.svg",
    data: { url: notice.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const tab = open.find((client) => client.url === url);
    if (tab) return tab.focus();
    return self.clients.openWindow(url);
  })());
});
