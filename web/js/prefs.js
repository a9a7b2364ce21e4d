// This browser's own settings, kept in localStorage: nothing here is sent to the server.
//   sound      a short tone when it becomes your turn (off unless switched on)
//   devSteps   the developer's list of every legal step under the prompt (off for players; the
//              browser tests switch it on, since they read the steps from it)

const KEYS = { sound: 'santorini.sound', devSteps: 'santorini.dev-steps' };

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
