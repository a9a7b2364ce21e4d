// The one WebSocket connection to the server: hello, requests with refs, open matches kept
// current from snapshots and patches, and a reconnect (with backoff) that nobody notices:
// after a drop it says hello again, resubscribes and reopens every match since its version.
import { applyPatch } from './patch.js';
import { noteAuthors } from './authors.js';

// The ref of a match.open: this prefix and the match id (refs of requests are integers).
const OPEN_REF = 'open:';
/** The close code of a revoked session (docs/protocol.md, "Limits and close codes"). */
const SIGNED_OUT = 4001;
const SERVICE_RESTART = 1012;

export class Connection {
  /** `token`: the guest's secret; `onAuthFailed`: called when the server no longer knows it;
   *  `onSignedOut`: when the server closed the connection because the session was revoked. */
  constructor(token, { onAuthFailed, onSignedOut } = {}) {
    this.token = token;
    this.onAuthFailed = onAuthFailed;
    this.onSignedOut = onSignedOut;
    this.socket = null;
    this.player = null;
    this.nextRef = 1;
    this.pending = new Map(); // ref -> {resolve, reject}
    this.listeners = new Map(); // type -> Set(fn)
    this.matches = new Map(); // id -> {view, version, receivedAt, code}: code, a private match's invite code
    this.subscriptions = new Set(); // 'lobbies', 'matches'
    this.queued = []; // messages waiting for a welcome
    this.ready = false;
    this.attempt = 0;
    this.closedByUs = false;
    this.status = 'connecting';
    this.stats = { welcomes: 0, snapshots: 0, patches: 0 }; // for the status line and tests
  }

  start() {
    this.closedByUs = false;
    this.open();
  }

  stop() {
    this.closedByUs = true;
    if (this.socket) this.socket.close(1000);
  }

  open() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    this.socket = socket;
    this.setStatus('connecting');
    socket.addEventListener('open', () => {
      // ack_in_patch: a step's acknowledgement rides in its patch (one frame less per step);
      // a plain ack still comes where the server sends one (docs/protocol.md, "Conventions").
      socket.send(JSON.stringify({ type: 'hello', protocol: 1, token: this.token, ack_in_patch: true }));
    });
    socket.addEventListener('message', (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(msg);
    });
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.ready = false;
      // Requests already on the wire may or may not have arrived: say so. Those still queued
      // go out after the next welcome.
      for (const [ref, p] of this.pending) {
        if (!p.sent) continue;
        this.pending.delete(ref);
        p.reject(new ServerError('unavailable', 'connection lost; please try again'));
      }
      if (this.closedByUs) return;
      // 4001: this device's session was revoked (signed out elsewhere, or the password
      // changed): its token will be refused, so no reconnect (docs/protocol.md).
      if (event.code === SIGNED_OUT) {
        this.closedByUs = true;
        if (this.onSignedOut) this.onSignedOut();
        return;
      }
      this.setStatus('reconnecting');
      // Exponential backoff with jitter: 0.5 s doubling to 30 s. After a 1012 (service restart:
      // a node of a fleet went away, or lost a match to another) the first attempt goes at
      // once, within a quarter second so that a node's clients do not all arrive together
      // (docs/protocol.md).
      const restart = event.code === SERVICE_RESTART && this.attempt === 0;
      const delay = restart ? Math.random() * 250 : Math.min(30000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
      this.attempt += 1;
      this.retryDelay = delay; // the wait before this reconnect (read by the browser tests)
      setTimeout(() => this.open(), delay);
    });
  }

  setStatus(status) {
    this.status = status;
    this.emit('status', { status });
  }

  receive(msg) {
    if (msg.type === 'match.patch' && msg.ref !== undefined) {
      // The patch acknowledges a request: apply it first, so the request resolves on the new view.
      const { ref, ...patch } = msg;
      this.receive(patch);
      this.settle(ref, null, msg);
      return;
    }
    switch (msg.type) {
      case 'welcome':
        this.player = msg.player;
        this.ready = true;
        this.stats.welcomes += 1;
        this.attempt = 0;
        this.setStatus('online');
        for (const what of this.subscriptions) this.raw({ type: `${what}.subscribe` });
        for (const id of this.matches.keys()) this.reopen(id);
        for (const q of this.queued.splice(0)) {
          if (q.ref !== undefined && this.pending.has(q.ref)) this.pending.get(q.ref).sent = true;
          this.raw(q);
        }
        break;
      case 'ack':
      case 'pong':
        this.settle(msg.ref, null, msg);
        break;
      case 'error':
        if (msg.code === 'not_authenticated' && !this.ready) {
          this.closedByUs = true;
          this.socket.close(1000);
          if (this.onAuthFailed) this.onAuthFailed();
          return;
        }
        if (msg.ref !== undefined && this.pending.has(msg.ref)) {
          this.settle(msg.ref, new ServerError(msg.code, msg.message));
          return;
        }
        if (typeof msg.ref === 'string' && msg.ref.startsWith(OPEN_REF)) this.openFailed(msg.ref.slice(OPEN_REF.length), msg);
        break;
      case 'match.snapshot': {
        const m = this.matches.get(msg.match);
        if (!m) return;
        m.view = msg.view;
        m.version = msg.version;
        m.receivedAt = performance.now();
        this.stats.snapshots += 1;
        break;
      }
      case 'match.patch': {
        const m = this.matches.get(msg.match);
        if (!m || m.version === null) return;
        if (msg.version <= m.version) return; // a duplicate
        if (msg.version > m.version + 1) {
          this.reopen(msg.match);
          return;
        }
        try {
          const before = m.view;
          m.view = applyPatch(m.view, msg.patch);
          noteAuthors(m, before, m.view);
          m.version = msg.version;
          m.receivedAt = performance.now();
          this.stats.patches += 1;
        } catch {
          m.version = null; // ask for a whole snapshot
          this.reopen(msg.match);
          return;
        }
        break;
      }
      default:
        break;
    }
    this.emit(msg.type, msg);
  }

  settle(ref, error, msg) {
    const p = this.pending.get(ref);
    if (!p) return;
    this.pending.delete(ref);
    if (error) p.reject(error);
    else p.resolve(msg);
  }

  raw(msg) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(msg));
  }

  /** Sends a message once connected; resolves on its ack, rejects with a ServerError. */
  request(msg) {
    const ref = this.nextRef++;
    const full = { ...msg, ref };
    return new Promise((resolve, reject) => {
      this.pending.set(ref, { resolve, reject, sent: this.ready });
      if (this.ready) this.raw(full);
      else this.queued.push(full);
    });
  }

  /** Sends without waiting for an answer (queued until connected). */
  send(msg) {
    if (this.ready) this.raw(msg);
    else this.queued.push(msg);
  }

  // Subscriptions and open matches are (re)sent after every welcome, so they are only sent
  // directly while connected.
  subscribe(what) {
    this.subscriptions.add(what);
    if (this.ready) this.raw({ type: `${what}.subscribe` });
  }

  unsubscribe(what) {
    if (!this.subscriptions.delete(what)) return;
    if (this.ready) this.raw({ type: `${what}.unsubscribe` });
  }

  /** Starts following a match; its views arrive as 'match.snapshot'/'match.patch' events, and
   *  a refusal as 'match.error' ({match, code, message}). `code`: a private match's invite code,
   *  which a spectator needs (docs/protocol.md "Private matches"); kept with the match and sent
   *  with every match.open, after each reconnect and gap too. */
  openMatch(id, { code = null } = {}) {
    const known = this.matches.get(id);
    if (known) {
      if (code && known.code !== code) {
        known.code = code;
        if (known.view === null) this.reopen(id);
      }
      if (known.view) this.emit('match.snapshot', { match: id, version: known.version, view: known.view });
      return;
    }
    this.matches.set(id, { view: null, version: null, receivedAt: 0, code, authors: [] });
    this.reopen(id);
  }

  /** (Re)sends match.open for an open match: since its version when it has one, with its code.
   *  The ref names the match, so a refusal (an error without a pending request) finds it. */
  reopen(id) {
    const m = this.matches.get(id);
    if (!m || !this.ready) return;
    const msg = { type: 'match.open', match: id, ref: `${OPEN_REF}${id}` };
    if (m.version !== null) msg.since = m.version;
    if (m.code) msg.code = m.code;
    this.raw(msg);
  }

  /** A match.open refused: `unavailable` is retried in a moment (a restart still restoring);
   *  otherwise a match never shown is forgotten (nothing to resend after a reconnect) and the
   *  screen is told. */
  openFailed(id, msg) {
    const m = this.matches.get(id);
    if (!m) return;
    if (msg.code === 'unavailable') {
      setTimeout(() => this.matches.get(id) === m && this.reopen(id), 1000);
      return;
    }
    if (m.view === null) this.matches.delete(id);
    this.emit('match.error', { match: id, code: msg.code, message: msg.message });
  }

  closeMatch(id) {
    if (!this.matches.delete(id)) return;
    if (this.ready) this.raw({ type: 'match.close', match: id });
  }

  match(id) {
    return this.matches.get(id);
  }

  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(fn);
    return () => this.listeners.get(type).delete(fn);
  }

  emit(type, msg) {
    for (const fn of [...(this.listeners.get(type) || [])]) fn(msg);
  }
}

export class ServerError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}
