// One game's WebSocket, speaking protocol v1 (docs/protocol.md): welcome, update, over,
// presence, ack, error, pong. Reconnects by itself with backoff; every (re)connect is answered
// by a fresh `welcome`, so the table never needs to patch a stale state. The game's static part
// (board, rule tables) comes once per connection with the welcome, named by its content id; a
// welcome without it (the answer to `sync`) gets the one kept for that id, so every `welcome`
// dispatched carries `static`. Views never repeat it. The socket asks for views only when they
// changed (`?views=changed`, docs/protocol.md "Views only when they changed"): an `update`
// without `view` gets a copy of the connection's last view, so every `update` dispatched
// carries `view`, as before.

export class GameSocket extends EventTarget {
  constructor(gameId) {
    super();
    this.gameId = gameId;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.retry = 0;
    this.closed = false;
    this.state = 'connecting';
    this.pingTimer = null;
    this.lastPong = 0;
    this.staticId = null;
    this.staticData = null;
    // The view of the last welcome or update this connection received (`views=changed`).
    this.lastView = undefined;
    this.online = () => { if (this.state !== 'open') this.reconnectNow(); };
    // The browser knows the network is gone before the socket does: say so at once.
    this.offline = () => this.drop();
    window.addEventListener('online', this.online);
    window.addEventListener('offline', this.offline);
  }

  drop() {
    if (!this.ws || this.closed) return;
    const ws = this.ws;
    this.ws = null;
    clearInterval(this.pingTimer);
    try { ws.close(); } catch {}
    for (const [, p] of this.pending) p.reject(new Error('connection lost'));
    this.pending.clear();
    this.schedule();
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}?views=changed`;
  }

  connect() {
    if (this.closed) return;
    this.setState(this.retry ? 'reconnecting' : 'connecting');
    let ws;
    try { ws = new WebSocket(this.url()); } catch { return this.schedule(); }
    this.ws = ws;
    // A new connection starts from its welcome's view: no view kept from the one before.
    this.lastView = undefined;
    ws.onopen = () => {
      this.retry = 0;
      this.lastPong = Date.now();
      this.setState('open');
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.heartbeat(), 15000);
    };
    // Only the current socket's frames: an update without a view is relative to its own.
    ws.onmessage = (e) => { if (this.ws === ws) this.receive(e.data); };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      for (const [, p] of this.pending) p.reject(new Error('connection lost'));
      this.pending.clear();
      if (!this.closed) this.schedule();
    };
    ws.onerror = () => {};
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastPong > 40000) { this.drop(); return; }
    this.send({ type: 'ping' });
  }

  schedule() {
    this.setState('lost');
    const delay = Math.min(8000, 300 * 2 ** this.retry) * (0.75 + Math.random() * 0.5);
    this.retry++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    if (this.ws) { const old = this.ws; this.ws = null; try { old.close(); } catch {} }
    this.connect();
  }

  setState(s) {
    if (this.state === s) return;
    this.state = s;
    this.dispatchEvent(new CustomEvent('state', { detail: s }));
  }

  /** Keep a game's static part under its content id (from a welcome or the game's steps). */
  rememberStatic(id, data) {
    if (id && data !== undefined && data !== null) { this.staticId = id; this.staticData = data; }
  }

  receive(text) {
    let m;
    try { m = JSON.parse(text); } catch { return; }
    if (m.type === 'welcome') {
      if (m.static !== undefined) this.rememberStatic(m.static_id, m.static);
      else if (m.static_id === this.staticId) m.static = this.staticData;
    }
    if (m.type === 'welcome' || m.type === 'update') {
      if (m.view !== undefined) this.lastView = structuredClone(m.view); // the table may change its own
      else if (this.lastView !== undefined) m.view = structuredClone(this.lastView);
      else { this.drop(); return; } // a view we never had: start again from a welcome
    }
    if (m.type === 'pong') { this.lastPong = Date.now(); return; }
    this.lastPong = Date.now();
    if ((m.type === 'ack' || m.type === 'error') && m.id != null && this.pending.has(m.id)) {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.type === 'ack') p.resolve(m); else p.reject(Object.assign(new Error(m.message), m));
    }
    this.dispatchEvent(new CustomEvent('message', { detail: m }));
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: 1, ...msg }));
    return true;
  }

  /** Send an action; resolves on `ack`, rejects on `error` (nothing changed) or a lost connection. */
  act(action, seat) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const msg = { type: 'act', action, id };
      if (seat !== undefined && seat !== null) msg.seat = seat;
      if (!this.send(msg)) return reject(new Error('not connected'));
      this.pending.set(id, { resolve, reject });
      setTimeout(() => {
        if (this.pending.has(id)) { this.pending.delete(id); reject(new Error('no answer from the server')); }
      }, 15000);
    });
  }

  sync() { this.send({ type: 'sync' }); }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    window.removeEventListener('online', this.online);
    window.removeEventListener('offline', this.offline);
    if (this.ws) { const ws = this.ws; this.ws = null; try { ws.close(); } catch {} }
  }
}
