// The invite codes of the private matches this browser knows, by match id: a private match is
// watched, and its replay read, only with its code (docs/protocol.md "Private matches"). The
// server keeps only the code's hash once the lobby has started, so a player's client remembers
// the code it saw in the lobby (localStorage: it survives a reload, on this browser only).

const STORAGE_KEY = 'santorini.codes';
const KEPT = 50; // the most recent matches' codes; older ones are forgotten

function load() {
  try {
    const codes = JSON.parse(localStorage.getItem(STORAGE_KEY));
    return codes && typeof codes === 'object' && !Array.isArray(codes) ? codes : {};
  } catch {
    return {};
  }
}

/** Remembers `code` as the invite code of `match` (the newest last). */
export function rememberCode(match, code) {
  if (!match || !code) return;
  const codes = load();
  delete codes[match];
  codes[match] = code;
  const ids = Object.keys(codes);
  for (const id of ids.slice(0, Math.max(0, ids.length - KEPT))) delete codes[id];
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(codes));
  } catch {
    /* storage full or denied: the link is shown for this visit only */
  }
}

/** The invite code this browser knows for `match`, or null. */
export const codeOf = (match) => load()[match] || null;

const base = () => `${location.origin}${location.pathname}`;
const part = (code) => encodeURIComponent(code);

/** The route that watches `match` as a spectator with its invite code. */
export const watchHash = (match, code) => `#/watch/${part(match)}/${part(code)}`;
/** The route of `match`'s replay, with its invite code when there is one. */
export const replayHash = (match, code) => `#/replay/${part(match)}${code ? `/${part(code)}` : ''}`;
/** The spectator link to share: whoever opens it watches the match live. */
export const spectatorLink = (match, code) => `${base()}${watchHash(match, code)}`;
