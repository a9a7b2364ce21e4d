// The browser client: sign-in, the hash router and the screens. The server is the authority;
// the client renders what it is sent and sends back the step the player picks.
import { createGuest, useToken, signIn, signOutSession } from './api.js';
import { Connection } from './net.js';
import { h, mount } from './dom.js';
import { homeScreen } from './screens/home.js';
import { createScreen } from './screens/create.js';
import { lobbyScreen, joinScreen } from './screens/lobby.js';
import { gameScreen } from './screens/game.js';
import { replayScreen } from './screens/replay.js';
import { playerScreen } from './screens/player.js';
import { leaderboardScreen } from './screens/leaderboard.js';
import { accountScreen } from './screens/account.js';
import { rememberCode } from './codes.js';

const STORAGE_KEY = 'santorini.guest';

/** What every screen shares: the signed-in guest, the connection, the lobby we sit in. */
export const app = {
  me: null, // {id, name, token, username}: username set once the guest has an account
  conn: null,
  lobby: null, // the lobby object from the last `lobby` event, or null
  queue: null, // the last `queue` event while waiting, or null
  screen: document.getElementById('screen'),
  navigate(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  toast(text) {
    const el = document.getElementById('toast');
    el.textContent = text;
    el.hidden = false;
    clearTimeout(app.toastTimer);
    app.toastTimer = setTimeout(() => (el.hidden = true), 4000);
  },
};
window.santoriniApp = app; // for debugging in the console

function loadGuest() {
  try {
    const g = JSON.parse(localStorage.getItem(STORAGE_KEY));
    return g && g.token ? g : null;
  } catch {
    return null;
  }
}

/** Keeps app.me for the next visit (the token stays on this device only). */
function saveMe() {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(app.me));
  useToken(app.me && app.me.token);  // a signed-in device's own token from now on
  renderMe();
}
app.saveMe = saveMe;

/** Signs this device out: the server revokes its token (best effort), the browser forgets it. */
function signOut() {
  if (app.me && app.me.token) signOutSession(app.me.token).catch(() => {});
  localStorage.removeItem(STORAGE_KEY);
  setLobby(null);
  if (app.conn) app.conn.stop();
  app.conn = null;
  app.me = null;
  useToken(null);
  route();
}
app.signOut = signOut;

function connect() {
  const conn = new Connection(app.me.token, {
    onAuthFailed: () => {
      app.toast('Your guest account is no longer known to the server; please sign in again.');
      signOut();
    },
  });
  app.conn = conn;
  conn.on('status', ({ status }) => {
    const el = document.getElementById('net-status');
    el.className = `net-status ${status}`;
    el.textContent = status === 'online' ? '' : status === 'reconnecting' ? 'reconnecting…' : 'connecting…';
  });
  conn.on('welcome', (msg) => {
    app.me.name = msg.player.name;
    renderMe();
  });
  conn.on('lobby', (msg) => {
    setLobby(msg.lobby);
    if (!location.hash.startsWith('#/lobby/')) app.navigate(`#/lobby/${msg.lobby.id}`);
  });
  conn.on('lobby.closed', (msg) => {
    // A private lobby's code is what lets others watch its match: the server keeps it no more.
    const lobby = app.lobby;
    if (msg.reason === 'started' && msg.match && lobby && lobby.id === msg.lobby && lobby.code && lobby.settings?.public === false) rememberCode(msg.match, lobby.code);
    setLobby(null);
    if (msg.reason === 'started' && msg.match) {
      app.navigate(`#/match/${msg.match}`);
      return;
    }
    const why = { kicked: 'The host removed you from the lobby.', host_left: 'The host closed the lobby.', disconnected: 'You were away too long; your lobby seat was given up.' };
    if (why[msg.reason]) app.toast(why[msg.reason]);
    if (location.hash.startsWith('#/lobby/')) app.navigate('#/');
  });
  conn.on('queue', (msg) => {
    if (msg.state === 'waiting') app.queue = msg;
    else app.queue = null;
    if (msg.state === 'matched' && msg.match) app.navigate(`#/match/${msg.match}`);
  });
  conn.start();
}

// The server tells a tab about its player's lobby only when the lobby changes, so a reloaded
// tab restores the last one it saw (per tab) until the next event or lobby.closed.
const LOBBY_KEY = 'santorini.lobby';

function setLobby(lobby) {
  app.lobby = lobby;
  if (lobby) sessionStorage.setItem(LOBBY_KEY, JSON.stringify(lobby));
  else sessionStorage.removeItem(LOBBY_KEY);
}

function restoreLobby() {
  try {
    const lobby = JSON.parse(sessionStorage.getItem(LOBBY_KEY));
    if (lobby && app.me && lobby.seats.some((s) => s && s.player.id === app.me.id)) app.lobby = lobby;
  } catch {
    /* nothing saved */
  }
}

function renderMe() {
  const link = document.getElementById('me-link');
  const account = document.getElementById('account-link');
  if (app.me) {
    link.textContent = app.me.name;
    link.href = `#/player/${app.me.id}`;
    account.hidden = false;
    account.textContent = app.me.username ? app.me.username : 'Account';
  } else {
    link.textContent = '';
    account.hidden = true;
  }
}

/** Signs in to an existing account on this device. */
function accountSignIn(then) {
  const username = h('input', { id: 'signin-username', maxlength: 24, required: true, placeholder: 'Username', autocomplete: 'username' });
  const password = h('input', { id: 'signin-password', type: 'password', required: true, autocomplete: 'current-password' });
  const error = h('p', { class: 'error', role: 'alert', id: 'signin-error' });
  return h(
    'form',
    {
      class: 'card narrow',
      id: 'account-sign-in',
      onsubmit: async (e) => {
        e.preventDefault();
        error.textContent = '';
        try {
          const me = await signIn(username.value.trim(), password.value);
          app.me = me;
          saveMe();
          connect();
          then();
        } catch (err) {
          error.textContent = err.message;
        }
      },
    },
    h('h2', {}, 'Have an account?'),
    h('p', { class: 'muted' }, 'Sign in to play as yourself on this device, with your ratings and games.'),
    h('label', { for: 'signin-username' }, 'Username'),
    username,
    h('label', { for: 'signin-password' }, 'Password'),
    password,
    h('button', { type: 'submit', id: 'signin-submit' }, 'Sign in'),
    error,
  );
}

function signInScreen(screen, then) {
  const input = h('input', { id: 'guest-name', maxlength: 24, required: true, placeholder: 'Your name', autocomplete: 'nickname' });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    {
      class: 'card narrow',
      onsubmit: async (e) => {
        e.preventDefault();
        error.textContent = '';
        try {
          const guest = await createGuest(input.value.trim());
          app.me = guest;
          useToken(guest.token);
          localStorage.setItem(STORAGE_KEY, JSON.stringify(guest));
          renderMe();
          connect();
          then();
        } catch (err) {
          error.textContent = err.message;
        }
      },
    },
    h('h1', {}, 'Play Santorini or Splendor'),
    h('p', {}, 'Pick a name to play as a guest. No account or password needed.'),
    h('label', { for: 'guest-name' }, 'Name'),
    input,
    h('button', { type: 'submit', class: 'primary', id: 'sign-in' }, 'Play as guest'),
    error,
  );
  mount(screen, form, accountSignIn(then));
  input.focus();
}

let cleanup = null;

const routes = [
  [/^#?\/?$/, homeScreen, true],
  [/^#\/create$/, createScreen, true],
  [/^#\/lobby\/([^/]+)$/, lobbyScreen, true],
  [/^#\/join\/([^/]+)$/, joinScreen, true],
  [/^#\/match\/([^/]+)$/, gameScreen, true],
  // A private match's spectator link and replay carry its invite code (codes.js).
  [/^#\/watch\/([^/]+)\/([^/]+)$/, gameScreen, true],
  [/^#\/replay\/([^/]+)(?:\/([^/]+))?$/, replayScreen, false],
  [/^#\/player\/([^/]+)$/, playerScreen, false],
  [/^#\/leaderboard(?:\/([^/]+))?$/, leaderboardScreen, false],
  [/^#\/account$/, accountScreen, true],
];

function route() {
  if (cleanup) {
    try {
      cleanup();
    } catch (e) {
      console.error(e);
    }
    cleanup = null;
  }
  const hash = location.hash || '#/';
  for (const [pattern, screen, needsGuest] of routes) {
    const m = hash.match(pattern);
    if (!m) continue;
    if (needsGuest && !app.me) {
      signInScreen(app.screen, route);
      return;
    }
    const result = screen(app.screen, ...m.slice(1).map((x) => (x === undefined ? x : decodeURIComponent(x))));
    cleanup = typeof result === 'function' ? result : null;
    window.scrollTo(0, 0);
    return;
  }
  mount(app.screen, h('div', { class: 'card' }, h('h1', {}, 'Not found'), h('a', { href: '#/' }, 'Back home')));
}

app.me = loadGuest();
useToken(app.me && app.me.token);
restoreLobby();
renderMe();
if (app.me) connect();
window.addEventListener('hashchange', route);
route();
