// This browser's own settings, kept in localStorage: nothing here is sent to the server.
//   sound      a short tone when it becomes your turn (off unless switched on)
//   devSteps   the developer's list of every legal step under the prompt (off for players; the
//              browser tests switch it on, since they read the steps from it)
//   chatOff    the match chat hidden (docs/protocol.md "Chat"; shown unless switched off)
// and the players whose chat lines this browser hides (mutedPlayers).

const KEYS = { sound: 'santorini.sound', devSteps: 'santorini.dev-steps', chatOff: 'santorini.chat-off' };
const MUTED_KEY = 'santorini.chat-muted';

/** Whether setting `name` (a key of KEYS) is on. */
export function pref(name) {
  try {
    return localStorage.getItem(KEYS[name]) === '1';
  } catch {
    return false;
  }
}

/** Turns setting `name` on or off for this browser. */
export function setPref(name, on) {
  try {
    if (on) localStorage.setItem(KEYS[name], '1');
    else localStorage.removeItem(KEYS[name]);
  } catch {
    /* storage refused (private mode): the setting lasts for this page only */
  }
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

/** The ids of the players whose chat lines this browser hides. */
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

/** Hides (`on`) or shows again the chat lines of player `id` in this browser. */
export function setMuted(id, on) {
  mutedPlayers();
  if (on) muted.add(id);
  else muted.delete(id);
  try {
    if (muted.size) localStorage.setItem(MUTED_KEY, JSON.stringify([...muted].slice(-200)));
    else localStorage.removeItem(MUTED_KEY);
  } catch {
    /* storage refused (private mode): the mute lasts for this page only */
  }
}
