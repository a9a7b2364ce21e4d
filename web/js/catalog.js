// The Santorini power catalog, as the server serves it (GET /api/powers, docs/api.md "Powers"):
// names, categories, player counts, the Golden Fleece flag, banned pairs and one-line texts.
// Fetched once per page load (app.js waits for it before the first screen); the client keeps
// no copy of its own, and until the catalog arrives (or if it cannot) a power shows its key.
// Names and texts are shown in the current language: a language file may give a power's name
// and its text in its own words (i18n, `powers`); English is the server's.
import { powers as fetchPowers } from './api.js';
import { powerNameIn, powerTextIn } from './i18n/index.js';

let byKey = new Map(); // key -> {id, number, name, category, players, golden_fleece, banned, text}
let loading = null;

/** Fetches the catalog once; later calls return the same promise. Never rejects: a failed
 *  fetch leaves the catalog empty (names shown as keys) and is retried on the next call. */
export function loadCatalog() {
  if (!loading)
    loading = fetchPowers()
      .then((answer) => {
        byKey = new Map(answer.powers.map((p) => [p.id, p]));
      })
      .catch(() => {
        loading = null;
      });
  return loading || Promise.resolve();
}

/** Every power in rulebook order (empty until loaded). */
export const allPowers = () => [...byKey.values()];

/** A power's catalog entry, or undefined for an unknown key. */
export const powerInfo = (key) => byKey.get(key);

/** Display name of a power key in the current language (unknown keys are shown as they are). */
export function powerName(key) {
  if (!key) return '';
  return (byKey.has(key) && powerNameIn(key)) || byKey.get(key)?.name || key;
}

/** The one-line summary of a power in the current language ('' if unknown). */
export const powerText = (key) => (byKey.has(key) && powerTextIn(key)) || byKey.get(key)?.text || '';

/** True when the rulebook bans `a` and `b` in the same game (the lists are symmetric). */
export function banned(a, b) {
  return Boolean(byKey.get(a)?.banned.includes(b));
}
