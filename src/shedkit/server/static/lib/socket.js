// The table's WebSocket: connects, reconnects with backoff, says hello with the seat token,
// and hands each message to the page. It renders nothing.
import { getSeat, setSeat } from "./api.js";

export class TableSocket {
  // handlers: onState(message), onError(message), onChat(line), onStatus({state, retryIn}).
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.ws = null;
    this.retry = 0;
    this.stopped = false;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(`${scheme}${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.handlers.onStatus({ state: "connecting" });
    ws.onopen = () => {
      this.retry = 0;
      this.handlers.onStatus({ state: "open" });
      this.hello();
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (message.type === "state") this.handlers.onState(message);
      else if (message.type === "error") {
        if (message.code === "bad_token") setSeat(this.tableId, null, null);
        this.handlers.onError(message);
      } else if (message.type === "chat") this.handlers.onChat(message);
    };
    ws.onclose = () => {
      if (this.stopped) return;
      // 0.5 s, 1 s, 2 s … up to 10 s; the server resends the seat's view after hello.
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      this.handlers.onStatus({ state: "closed", retryIn: wait });
      setTimeout(() => this.connect(), wait);
    };
  }

  hello() {
    const mine = getSeat(this.tableId);
    if (mine) this.send({ type: "hello", token: mine.token });
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  // False when offline: the page shows that nothing was sent.
  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }
}
