// This browser's settings, kept in localStorage:
//   sound      a short tone when it becomes your turn (off unless switched on)
//   devSteps   the developer's list of every legal step under the prompt (off for players; the
//              browser tests switch it on, since they read the steps from it)
//   chatOff    the match chat hidden (docs/protocol.md "Chat"; shown unless switched off)
// and the players whose chat lines this player hides (mutedPlayers).
//
// The player's own preferences are remembered by the server too, on the player id
// (docs/api.md "Preferences"), so an account carries them to every device it signs in on:
// chatOff, the muted players and the language picked (i18n/index.js keeps the device's pick).
// At each connection (syncPreferences, after `welcome`) the server's copy is read and wins over
// this browser's for chatOff and the mutes; its language, when it has one, replaces the device's
// pick (none: the device's pick, else the browser's languages). Each change here is stored in
// this browser first, so it works offline or refused, and then sent whole (PUT); a change the
// server did not take is sent again at the next connection instead of reading the server's.

import { loadPreferences, savePreferences } from './api.js';
import { lang, setLang } from './i18n/index.js';

const KEYS = { sound: 'santorini.sound', devSteps: 'santorini.dev-steps', chatOff: 'santorini.chat-off' };
const MUTED_KEY = 'santorini.chat-muted';
const MAX_MUTED = 200; // the server's limit too
// The settings of KEYS that are the player's preferences (the server's `chat_off`).
const SYNCED = new Set(['chatOff']);

/** Whether setting `name` (a key of KEYS) is on. */
export function pref(name) {
  try {
    return localStorage.getItem(KEYS[name]) === '1';
  } catch {
    return false;
  }
}

function store(name, on) {
  try {
    if (on) localStorage.setItem(KEYS[name], '1');
    else localStorage.removeItem(KEYS[name]);
  } catch {
    /* storage refused (private mode): the setting lasts for this page only */
  }
}

/** Turns setting `name` on or off (for this browser; for the player too if it is one of theirs). */
export function setPref(name, on) {
  store(name, on);
  if (SYNCED.has(name)) push();
}

/** A labelled checkbox bound to setting `name`; `onchange(on)` runs after it is stored. */
export function prefToggle(h, name, label, onchange = () => {}) {
  const id = `pref-${name}`;
  return h(
    'label',
    { class: 'check pref', for: id },
    h('input', { type: 'checkbox', id, checked: pref(name), onchange: (e) => { setPref(name, e.target.checked); onchange(e.target.checked); } }),
    ' ',
    label,
  );
}

/** The ids of the players whose chat lines this player hides. */
let muted = null; // read once; kept here too, so a mute lasts the page where storage is refused
export function mutedPlayers() {
  if (!muted) {
    try {
      const ids = JSON.parse(localStorage.getItem(MUTED_KEY) || '[]');
      muted = new Set(Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : []);
    } catch {
      muted = new Set();
    }
  }
  return new Set(muted);
}

function storeMuted(ids) {
  muted = new Set([...ids].slice(-MAX_MUTED));
  try {
    if (muted.size) localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
    else localStorage.removeItem(MUTED_KEY);
  } catch {
    /* storage refused (private mode): the mute lasts for this page only */
  }
}

/** Hides (`on`) or shows again the chat lines of player `id`. */
export function setMuted(id, on) {
  const ids = mutedPlayers();
  if (on) ids.add(id);
  else ids.delete(id);
  storeMuted(ids);
  push();
}

// ---- The server's copy ----

let token = null; // the player's token (null: signed out, nothing is sent)
let language = null; // the language the server keeps for the player (null: the browser's)
// A change the server has not taken yet, kept in storage ({token, language}: the player it is
// for, and the language it carries, which a reloaded page does not know before it reads the
// server) so that a page reloaded while its PUT was on the way sends it again rather than read
// an older copy.
const UNSENT_KEY = 'santorini.prefs-unsent';
function unsentFor(as) {
  try {
    const unsent = JSON.parse(localStorage.getItem(UNSENT_KEY));
    return unsent && unsent.token === as ? unsent : null;
  } catch {
    return null;
  }
}
function setUnsent(as, on) {
  try {
    if (on) localStorage.setItem(UNSENT_KEY, JSON.stringify({ token: as, language }));
    else if (unsentFor(as)) localStorage.removeItem(UNSENT_KEY);
  } catch {
    /* storage refused: the page's own sends are all there is */
  }
}
let sending = Promise.resolve(); // the PUTs go one after the other, so the last one wins
const listeners = new Set();

/** Calls `fn()` after the server's preferences replaced this browser's; returns the function
 *  that stops it. */
export function onPreferences(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

let queued = 0; // PUTs sent or waiting: the mark is cleared only when the last one settles

function push() {
  if (!token) return;
  const as = token;
  setUnsent(as, true);
  queued += 1;
  const body = { language, chat_off: pref('chatOff'), muted: [...mutedPlayers()] };
  sending = sending
    .then(() => savePreferences(as, body))
    .then(
      () => true,
      // Offline or busy: kept here, sent again at the next connection. Refused as it is (a
      // 4xx but 429): sending it again would not help, so the next connection reads instead.
      (err) => err?.status >= 400 && err.status < 500 && err.status !== 429,
    )
    .then((settled) => {
      queued -= 1;
      if (settled && queued === 0) setUnsent(as, false);
    });
}

/** The player picks a language: shown at once, remembered on this device and by the server. */
export function pickLanguage(code) {
  setLang(code);
  language = lang();
  push();
}

/** At each connection of the player holding `playerToken` (null: signed out): sends what the
 *  server has not taken yet, else reads the server's preferences and applies them. */
export async function syncPreferences(playerToken) {
  if (playerToken !== token) {
    if (token) setUnsent(token, false); // signed out: that player's change is not sent any more
    token = playerToken || null;
    language = null;
  }
  if (!token) return;
  const unsent = unsentFor(token);
  if (unsent) {
    language = typeof unsent.language === 'string' ? unsent.language : null;
    return push();
  }
  const as = token;
  let kept;
  try {
    kept = await loadPreferences(as);
  } catch {
    return; // offline, or a server without the route: this browser's settings stay
  }
  if (as !== token || unsentFor(as)) return; // signed out meanwhile, or changed here since
  store('chatOff', kept.chat_off === true);
  storeMuted(Array.isArray(kept.muted) ? kept.muted.filter((id) => typeof id === 'string') : []);
  language = typeof kept.language === 'string' ? kept.language : null;
  if (language && language !== lang()) setLang(language);
  for (const fn of [...listeners]) fn();
}
