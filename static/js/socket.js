// The match websocket with reconnection (backoff); the server sends a full view on every open.
// `path` is "/ws/matches/{id}" for a seat, which sends `hello` ({"type": "auth", "token"}) as its
// first message on every open, so the seat token is never in a URL; "/ws/watch/{id}?key=…" for a
// spectator (the key is the spectator link's own). It asks for log tails (`log=tail`): after the
// first full view of each open, a view carries "log_from" and only the entries from there on, and
// the log kept here is completed before the view is handed on, so the rest of the page always
// sees whole views. Messages of other types (chat lines) go to `onMessage`.
export function connect(path, { hello, onView, onError, onStatus, onMessage }) {
  let ws = null;
  let attempt = 0;
  let closedByUs = false;
  let retryAfter = 0;  // ms the server asked us to wait (a refusal under load says so)
  let log = [];  // this open's log so far
  const tailed = `${path}${path.includes("?") ? "&" : "?"}log=tail`;
  const url = () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${tailed}`;

  function whole(view) {
    if (view.log_from === undefined) log = view.log;
    else if (view.log_from <= log.length) log = log.slice(0, view.log_from).concat(view.log);
    else return null;  // entries were missed: cannot happen on one open, but never show a gap
    const { log_from: _, ...rest } = view;
    return { ...rest, log };
  }

  function open() {
    onStatus("reconnecting");
    log = [];
    ws = new WebSocket(url());
    ws.onopen = () => {
      if (hello) ws.send(JSON.stringify(hello));
      onStatus("connected");
    };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "view") {
        attempt = 0;  // served, not just opened: a socket refused at once keeps backing off
        retryAfter = 0;
        const view = whole(msg);
        if (view) onView(view);
        else ws.close();  // reconnect: a new open starts with a full view
      }
      else if (msg.type === "error") {
        if (msg.retry_after) retryAfter = 1000 * msg.retry_after;
        onError(msg);
      }
      else if (onMessage) onMessage(msg);  // anything else (a chat line) to whoever wants it
    };
    ws.onclose = () => {
      if (closedByUs) return;
      onStatus("reconnecting");
      const backoff = Math.min(10000, 500 * 2 ** attempt++) * (0.75 + Math.random() / 2);
      const delay = Math.max(backoff, retryAfter);
      retryAfter = 0;
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
