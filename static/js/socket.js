// The match websocket with reconnection (backoff); the server sends a full view on every open.
// `path` is "/ws/matches/{id}" for a seat, which sends `hello` ({"type": "auth", "token"}) as its
// first message on every open, so the seat token is never in a URL; "/ws/watch/{id}?key=…" for a
// spectator (the key is the spectator link's own).
export function connect(path, { hello, onView, onError, onStatus }) {
  let ws = null;
  let attempt = 0;
  let closedByUs = false;
  const url = () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;

  function open() {
    onStatus("reconnecting");
    ws = new WebSocket(url());
    ws.onopen = () => {
      if (hello) ws.send(JSON.stringify(hello));
      attempt = 0;
      onStatus("connected");
    };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "view") onView(msg);
      else if (msg.type === "error") onError(msg);
    };
    ws.onclose = () => {
      if (closedByUs) return;
      onStatus("reconnecting");
      const delay = Math.min(10000, 500 * 2 ** attempt++) * (0.75 + Math.random() / 2);
      setTimeout(open, delay);
    };
  }
  open();
  return {
    send(message) {
      if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); return true; }
      return false;
    },
    close() { closedByUs = true; if (ws) ws.close(); },
  };
}
