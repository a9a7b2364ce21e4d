// The HTTP API (docs/protocol.md "HTTP API").

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(path, options = {}) {
  const response = await fetch(path, options);
  if (!response.ok) {
    let body = {};
    try {
      body = await response.json();
    } catch {
      /* not JSON */
    }
    throw new ApiError(response.status, body.code || String(response.status), body.error || response.statusText);
  }
  return response;
}

export async function createGuest(name) {
  const r = await call('/api/guests', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return r.json();
}

const get = async (path, options = {}) => (await call(path, options)).json();

// The guest's token, sent with replay and view requests only: a private match shows them to its
// players (and to whoever has its invite code), docs/api.md "Private matches".
let playerToken = null;
/** Sets (or with null clears) the token sent as Authorization with replays and views. */
export function useToken(token) {
  playerToken = token || null;
}
const asPlayer = () => (playerToken ? { headers: { Authorization: `Bearer ${playerToken}` } } : {});

// Accounts (docs/api.md "Accounts"): the token goes in the Authorization header, never the URL.
const bearer = (token) => (token ? { Authorization: `Bearer ${token}` } : {});
const postJson = async (path, body, token) =>
  (await call(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...bearer(token) }, body: JSON.stringify(body) })).json();

/** The guest holding `token` claims `username`: {id, name, username}. */
export const signUp = (token, username, password) => postJson('/api/accounts', { username, password }, token);
/** Signs in on this device: {id, name, username, token} (a token of its own). */
export const signIn = (username, password) => postJson('/api/sessions', { username, password });
/** Changes the password; the account's other devices are signed out. */
export const changePassword = (token, oldPassword, newPassword) =>
  postJson('/api/accounts/password', { old_password: oldPassword, new_password: newPassword }, token);
/** {id, name, username}: username null for a guest. */
export const account = async (token) => (await call('/api/account', { headers: bearer(token) })).json();
/** Revokes this device's token. */
export const signOutSession = (token) => call('/api/sessions/current', { method: 'DELETE', headers: bearer(token) });

// The player's preferences (docs/api.md "Preferences"): {language, chat_off, muted}.
/** The preferences the server keeps for the player holding `token`. */
export const loadPreferences = async (token) => (await call('/api/me/preferences', { headers: bearer(token) })).json();
/** Replaces them (the whole object); resolves to them as kept. `keepalive`: the request goes
 *  on even if the page is closed or reloaded right after a change. */
export const savePreferences = async (token, preferences) =>
  (await call('/api/me/preferences', { method: 'PUT', keepalive: true, headers: { 'Content-Type': 'application/json', ...bearer(token) }, body: JSON.stringify(preferences) })).json();

export const lobbies = () => get('/api/lobbies');
export const liveMatches = () => get('/api/matches');
// `code`: a private match's invite code (or null), which shows its replay and views to anyone.
const withCode = (code, sep) => (code ? `${sep}code=${encodeURIComponent(code)}` : '');
/** The match header; `code` is needed only without a database, for a private live match. */
export const matchHeader = (id, code = null) => get(`/api/matches/${encodeURIComponent(id)}${withCode(code, '?')}`);
export const replay = (id, code = null) => get(`/api/matches/${encodeURIComponent(id)}/replay${withCode(code, '?')}`, asPlayer());
export const viewAfter = (id, n, code = null) => get(`/api/matches/${encodeURIComponent(id)}/view?after=${n}${withCode(code, '&')}`, asPlayer());
export const player = (id) => get(`/api/players/${encodeURIComponent(id)}`);
export const ratingHistory = (id, pool) =>
  get(`/api/players/${encodeURIComponent(id)}/rating-history?pool=${encodeURIComponent(pool)}`);
export const leaderboard = (pool, limit = 50, offset = 0) =>
  get(`/api/leaderboard?pool=${encodeURIComponent(pool)}&limit=${limit}&offset=${offset}`);
export const queues = () => get('/api/queues');
export const powers = () => get('/api/powers');

/** One page of a player's matches, newest first: {matches, next} (next: the cursor or null). */
export async function playerMatches(id, after = null, limit = 20) {
  const query = `limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
  const response = await call(`/api/players/${encodeURIComponent(id)}/matches?${query}`);
  const text = await response.text();
  const matches = text.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
  return { matches, next: response.headers.get('X-Next-Cursor') };
}

// Whether this server keeps games (it runs with a database): replays, players' pages, the
// leaderboard and accounts need it. A server without one answers the leaderboard with 503
// `unavailable` (docs/api.md "Errors"); asked once per page load.
let storedAsked = null;
/** Resolves to true when the server keeps games, false when it answers 503 without a database. */
export function storesGames() {
  storedAsked ??= fetch('/api/leaderboard?pool=santorini&limit=1')
    .then((r) => r.status !== 503)
    .catch(() => true);
  return storedAsked;
}
