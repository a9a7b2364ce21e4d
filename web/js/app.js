// The browser client: sign-in, the hash router and the screens. The server is the authority;
// the client renders what it is sent and sends back the step the player picks.
//
// The screens' context: a screen never imports this module. The router calls it as
// `screen(ctx, ...routeParts)` with `ctx` = {state (state.js), screen (the element to fill),
// navigate(hash), toast(text), saveMe(), signOut(), setBrand(game), onLanguage(fn)}; a screen
// may return a cleanup function. Each route starts with the site's brand and title again.
//
// A change of language (the header's picker, i18n/index.js) draws the current screen again:
// a screen that registered `ctx.onLanguage(fn)` redraws itself in place (the match screen: the
// game goes on, its match stays open); any other screen is routed to afresh.
import { createGuest, useToken, signIn, signOutSession, storesGames } from './api.js';
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
import { createState } from './state.js';
import { loadCatalog } from './catalog.js';
import { errorText } from './errors.js';
import { t, lang, languages, onLangChange, missingKeys, translatePage } from './i18n/index.js';
import { pickLanguage, syncPreferences } from './prefs.js';

const STORAGE_KEY = 'santorini.guest';

const state = createState();
let toastTimer = null;

/** What every screen is handed (see the top of this file). */
const ctx = {
  state,
  screen: document.getElementById('screen'),
  navigate(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  toast(text) {
    const el = document.getElementById('toast');
    el.textContent = text;
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => (el.hidden = true), 4000);
  },
  saveMe,
  signOut,
  /** Registers how the current screen redraws itself after a change of language (until the
   *  next route); without it the screen is routed to again. */
  onLanguage(fn) {
    relabel = fn;
  },
  /** The header names the game being played (`null`: both games, the site's name). */
  setBrand(game) {
    document.getElementById('brand').textContent = game || t('site.name');
  },
};

// The browser tests' one deliberate window into the client (tests/browser/README.md, "The test
// hook"): read-only getters of the signed-in guest and the connection. The client never reads it.
Object.defineProperty(window, 'santoriniTest', {
  value: Object.freeze({
    get me() {
      return state.me;
    },
    get conn() {
      return state.conn;
    },
    /** The language shown and the keys it lacked so far (each "code:key"). */
    get i18n() {
      return { lang: lang(), missing: missingKeys() };
    },
  }),
});

function loadGuest() {
  try {
    const g = JSON.parse(localStorage.getItem(STORAGE_KEY));
    return g && g.token ? g : null;
  } catch {
    return null;
  }
}

/** Keeps state.me for the next visit (the token stays on this device only). */
function saveMe() {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(state.me));
  useToken(state.me && state.me.token);  // a signed-in device's own token from now on
  renderMe();
}

/** Signs this device out: the server revokes its token (best effort), the browser forgets it. */
function signOut() {
  if (state.me && state.me.token) signOutSession(state.me.token).catch(() => {});
  localStorage.removeItem(STORAGE_KEY);
  setLobby(null);
  if (state.conn) state.conn.stop();
  state.conn = null;
  state.me = null;
  useToken(null);
  syncPreferences(null);
  route();
}

function connect() {
  const conn = new Connection(state.me.token, {
    onAuthFailed: () => {
      ctx.toast(t('app.authFailed'));
      signOut();
    },
    onSignedOut: () => {
      ctx.toast(t('app.signedOutElsewhere'));
      signOut();
    },
  });
  state.conn = conn;
  conn.on('status', ({ status }) => {
    const el = document.getElementById('net-status');
    el.className = `net-status ${status}`;
    el.dataset.status = status;
    el.textContent = status === 'online' ? '' : status === 'reconnecting' ? t('net.reconnecting') : t('net.connecting');
  });
  conn.on('welcome', (msg) => {
    state.me.name = msg.player.name;
    renderMe();
    // The player's preferences as the server keeps them (prefs.js), at every (re)connection.
    syncPreferences(state.me.token);
  });
  conn.on('lobby', (msg) => {
    setLobby(msg.lobby);
    if (!location.hash.startsWith('#/lobby/')) ctx.navigate(`#/lobby/${msg.lobby.id}`);
  });
  conn.on('lobby.closed', (msg) => {
    // A private lobby's code is what lets others watch its match: the server keeps it no more.
    const lobby = state.lobby;
    if (msg.reason === 'started' && msg.match && lobby && lobby.id === msg.lobby && lobby.code && lobby.settings?.public === false) rememberCode(msg.match, lobby.code);
    setLobby(null);
    if (msg.reason === 'started' && msg.match) {
      ctx.navigate(`#/match/${msg.match}`);
      return;
    }
    const why = { kicked: 'lobby.closed.kicked', host_left: 'lobby.closed.hostLeft', disconnected: 'lobby.closed.disconnected' };
    if (why[msg.reason]) ctx.toast(t(why[msg.reason]));
    if (location.hash.startsWith('#/lobby/')) ctx.navigate('#/');
  });
  conn.on('queue', (msg) => {
    const waited = state.queue || state.joining;
    if (msg.state === 'waiting') state.queue = msg;
    else state.queue = null;
    if (msg.state === 'matched' && msg.match) {
      // The end-of-game dialog offers a new opponent from the same queue and clock.
      if (waited) setQueued({ match: msg.match, queue: waited.queue, clock: waited.clock });
      ctx.navigate(`#/match/${msg.match}`);
    }
  });
  conn.start();
}

// The server tells a tab about its player's lobby only when the lobby changes, so a reloaded
// tab restores the last one it saw (per tab) until the next event or lobby.closed.
const LOBBY_KEY = 'santorini.lobby';

function setLobby(lobby) {
  state.lobby = lobby;
  if (lobby) sessionStorage.setItem(LOBBY_KEY, JSON.stringify(lobby));
  else sessionStorage.removeItem(LOBBY_KEY);
}

// The queue (and clock) the last matched game came from, per tab: {match, queue, clock}.
const QUEUED_KEY = 'santorini.queued';

function setQueued(queued) {
  state.queued = queued;
  sessionStorage.setItem(QUEUED_KEY, JSON.stringify(queued));
}

function restoreQueued() {
  try {
    state.queued = JSON.parse(sessionStorage.getItem(QUEUED_KEY));
  } catch {
    /* nothing saved */
  }
}

function restoreLobby() {
  try {
    const lobby = JSON.parse(sessionStorage.getItem(LOBBY_KEY));
    if (lobby && state.me && lobby.seats.some((s) => s && s.player.id === state.me.id)) state.lobby = lobby;
  } catch {
    /* nothing saved */
  }
}

// Whether the server keeps games (api.js storesGames): until it answers, the links that need
// it are shown, so a server with a database never hides them.
let stores = true;

function renderMe() {
  const link = document.getElementById('me-link');
  const account = document.getElementById('account-link');
  document.getElementById('leaderboard-link').hidden = !stores;
  if (state.me) {
    // The player's own page needs stored games; without them the name is plain text.
    link.textContent = state.me.name;
    link.hidden = false;
    if (stores) link.href = `#/player/${state.me.id}`;
    else link.removeAttribute('href');
    account.hidden = !stores;
    account.textContent = state.me.username ? state.me.username : t('nav.account');
  } else {
    link.textContent = '';
    link.hidden = true;
    account.hidden = true;
  }
}

/** Signs in to an existing account on this device. */
function accountSignIn(then) {
  const username = h('input', { id: 'signin-username', maxlength: 24, required: true, placeholder: t('account.username'), autocomplete: 'username' });
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
          state.me = me;
          saveMe();
          connect();
          then();
        } catch (err) {
          error.textContent = errorText(err);
        }
      },
    },
    h('h2', {}, t('signIn.haveAccount')),
    h('p', { class: 'muted' }, t('signIn.accountText')),
    h('label', { for: 'signin-username' }, t('account.username')),
    username,
    h('label', { for: 'signin-password' }, t('account.password')),
    password,
    h('button', { type: 'submit', id: 'signin-submit' }, t('signIn.submit')),
    error,
  );
}

function signInScreen(screen, then) {
  const input = h('input', { id: 'guest-name', maxlength: 24, required: true, placeholder: t('signIn.namePlaceholder'), autocomplete: 'nickname' });
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
          state.me = guest;
          useToken(guest.token);
          localStorage.setItem(STORAGE_KEY, JSON.stringify(guest));
          renderMe();
          connect();
          then();
        } catch (err) {
          error.textContent = errorText(err);
        }
      },
    },
    h('h1', {}, t('signIn.title')),
    h('p', {}, t('signIn.guestText')),
    h('label', { for: 'guest-name' }, t('signIn.name')),
    input,
    h('button', { type: 'submit', class: 'primary', id: 'sign-in' }, t('signIn.asGuest')),
    error,
  );
  // Accounts live in the server's database: without one, only guests play.
  const signInForm = accountSignIn(then);
  storesGames().then((yes) => (signInForm.hidden = !yes));
  mount(screen, form, signInForm);
  input.focus();
}

let cleanup = null;
let relabel = null; // the current screen's own redraw after a change of language (ctx.onLanguage)

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
  relabel = null;
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
    if (needsGuest && !state.me) {
      signInScreen(ctx.screen, route);
      return;
    }
    ctx.setBrand(null);
    document.title = t('site.name');
    const result = screen(ctx, ...m.slice(1).map((x) => (x === undefined ? x : decodeURIComponent(x))));
    cleanup = typeof result === 'function' ? result : null;
    window.scrollTo(0, 0);
    return;
  }
  mount(ctx.screen, h('div', { class: 'card' }, h('h1', {}, t('app.notFound')), h('a', { href: '#/' }, t('common.backHome'))));
}

// On a phone the picker shows the languages' codes (EN, IT), so the header keeps to one line.
const narrow = window.matchMedia('(max-width: 520px)');

/** The header's language picker: every language the client speaks, each in its own words. */
function renderPicker() {
  const picker = document.getElementById('lang-picker');
  picker.replaceChildren(...languages().map((l) => h('option', { value: l.code, lang: l.code, title: l.name, selected: l.code === lang() }, narrow.matches ? l.code.toUpperCase() : l.name)));
  picker.value = lang();
  picker.onchange = () => pickLanguage(picker.value);
}
narrow.addEventListener('change', renderPicker);

onLangChange(() => {
  translatePage(document);
  renderPicker();
  renderMe();
  const status = document.getElementById('net-status');
  if (status.dataset.status && status.dataset.status !== 'online') status.textContent = status.dataset.status === 'reconnecting' ? t('net.reconnecting') : t('net.connecting');
  // The screen in view: in place if it says how, else routed to again.
  if (relabel) relabel();
  else route();
});

renderPicker();
state.me = loadGuest();
useToken(state.me && state.me.token);
restoreLobby();
restoreQueued();
renderMe();
storesGames().then((yes) => {
  stores = yes;
  document.documentElement.dataset.stores = yes ? '1' : '0';
  renderMe();
});
if (state.me) connect();
window.addEventListener('hashchange', route);
// The power catalog first: the screens name powers from it (a failed fetch shows keys).
loadCatalog().then(route);
