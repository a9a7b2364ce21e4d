// The client's words in every language it speaks. Each language is one file beside this one
// (en.js, it.js, ...) exporting {code, name, strings, powers}; PACKS below lists them, and
// everything else (the picker, the choice from the browser's languages) is derived from it.
//
// - t('home.quickPlay', {name: 'Ann'}) looks a key up in the current language, with {name}
//   placeholders; a value may be a plural set ({one, other, ...}) chosen by Intl.PluralRules
//   from the `count` parameter. A key missing in the current language falls back to English
//   and is noted (missingKeys(), and window.santoriniTest.i18n in app.js) so the tests see it.
// - The language: the player's pick on this device (localStorage), else the first of
//   navigator.languages the client speaks, else English. <html lang> follows it. The pick is
//   remembered by the server too (prefs.js pickLanguage): at connection an account's language
//   replaces this device's pick (prefs.js syncPreferences).
// - Numbers, dates, relative times and lists go through Intl in the current language.
import en from './en.js';
import it from './it.js';

/** Every language the client speaks, English first (the fallback). */
export const PACKS = [en, it];
const BY_CODE = new Map(PACKS.map((p) => [p.code, p]));
const FALLBACK = en;
const STORAGE_KEY = 'santorini.lang';

/** [{code, name}] of every language, for the picker (each name in its own language). */
export const languages = () => PACKS.map((p) => ({ code: p.code, name: p.name }));

/** The language the browser asks for: the first of `preferred` (BCP 47 tags) the client
 *  speaks, by its primary subtag ('it-IT' -> 'it'), else English. */
export function browserLanguage(preferred = globalThis.navigator?.languages || [globalThis.navigator?.language].filter(Boolean)) {
  for (const tag of preferred || []) {
    const code = String(tag).toLowerCase().split('-')[0];
    if (BY_CODE.has(code)) return code;
  }
  return FALLBACK.code;
}

function stored() {
  try {
    const code = globalThis.localStorage?.getItem(STORAGE_KEY);
    return BY_CODE.has(code) ? code : null;
  } catch {
    return null;
  }
}

let current = BY_CODE.get(stored() || browserLanguage()) || FALLBACK;
const listeners = new Set();
const missing = new Set(); // "it:home.quickPlay" for each key looked up and not found

/** The current language's code ('en', 'it'). */
export const lang = () => current.code;

/** Whether the player picked the language on this device (rather than the browser's). */
export const langPicked = () => stored() !== null;

/** Sets the language (remembered on this device) and tells every listener. */
export function setLang(code) {
  const pack = BY_CODE.get(code);
  if (!pack) return;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, code);
  } catch {
    /* storage refused: the choice lasts for this page */
  }
  if (pack === current) return;
  current = pack;
  applyDocumentLang();
  for (const fn of [...listeners]) fn(code);
}

/** Calls `fn(code)` after each change of language; returns the function that stops it. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The keys looked up but missing in their language (each "code:key"), for the tests. */
export const missingKeys = () => [...missing];

const plurals = new Map();
function pluralOf(code, n) {
  if (!plurals.has(code)) plurals.set(code, new Intl.PluralRules(code));
  return plurals.get(code).select(n);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (all, name) => (params[name] === undefined || params[name] === null ? all : String(params[name])));
}

function pick(value, code, params) {
  if (value && typeof value === 'object') {
    const n = Number(params.count);
    return value[pluralOf(code, n)] ?? value.other;
  }
  return value;
}

/** Whether `key` has a text in the current language (without noting it missing). */
export const has = (key) => current.strings[key] !== undefined;

/** The text of `key` in the current language with `params` filled in (numbers as they are:
 *  format them first with num() where they are counts to read). */
export function t(key, params = {}) {
  let value = current.strings[key];
  let code = current.code;
  if (value === undefined) {
    missing.add(`${current.code}:${key}`);
    value = FALLBACK.strings[key];
    code = FALLBACK.code;
    if (value === undefined) return key;
  }
  return fill(pick(value, code, params), params);
}

/** A protocol word (a status, an outcome, a reason) in the current language: the text of
 *  `${prefix}${word}` when the client knows that word, else the word as the server sent it. */
export const term = (prefix, word) => (FALLBACK.strings[`${prefix}${word}`] !== undefined ? t(`${prefix}${word}`) : String(word ?? ''));

/** A power's name in the current language (null: the catalog's, which is English). */
export const powerNameIn = (key) => current.powers?.[key]?.name ?? null;
/** A power's text in the current language (null: the catalog's, the server's English). */
export const powerTextIn = (key) => current.powers?.[key]?.text ?? null;

// One Intl.NumberFormat per language and options: making one costs far more than using it,
// and a table redraw formats dozens of numbers (counts, turns, gems, points).
const formats = new Map();

/** A number as the current language writes it. */
export function num(n, options) {
  const key = options ? `${current.code}|${JSON.stringify(options)}` : current.code;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(current.code, options)));
  return format.format(n);
}

/** A rating (or any score read as a figure): the current language's digits, never grouped. */
export const rating = (n) => num(n, { useGrouping: false });

/** A date (ISO text or epoch ms) as the current language writes it: the date alone. */
export const date = (when) => new Date(when).toLocaleDateString(current.code, { year: 'numeric', month: 'short', day: 'numeric' });

/** A date and time as the current language writes them. */
export const dateTime = (when) => new Date(when).toLocaleString(current.code, { dateStyle: 'medium', timeStyle: 'short' });

/** "3 minutes ago", "just now", or the date for anything older than a day. */
export function ago(iso) {
  if (!iso) return '';
  const seconds = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return t('time.justNow');
  const rtf = new Intl.RelativeTimeFormat(current.code, { numeric: 'auto', style: 'short' });
  if (seconds < 3600) return rtf.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86400) return rtf.format(-Math.floor(seconds / 3600), 'hour');
  return date(iso);
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" in the current language (its word for "and"). */
export function list(items) {
  const parts = items.map(String);
  if (parts.length < 2) return parts.join('');
  return `${parts.slice(0, -1).join(', ')}${t('list.and')}${parts[parts.length - 1]}`;
}

/** Fills the static text of `root` marked with data-i18n (text), data-i18n-title and
 *  data-i18n-aria-label (attributes). */
export function translatePage(root = globalThis.document) {
  if (!root?.querySelectorAll) return;
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll('[data-i18n-aria-label]')) el.setAttribute('aria-label', t(el.dataset.i18nAriaLabel));
}

function applyDocumentLang() {
  const doc = globalThis.document;
  if (!doc) return;
  doc.documentElement.lang = current.code;
  translatePage(doc);
}

applyDocumentLang();
