// The server's errors in words: a WebSocket `error` and an HTTP error body both carry a `code`
// (docs/protocol.md "Errors", docs/api.md "Errors"); the client names each code in the current
// language (i18n: 'error.<code>'). In English the server's own message is shown when there is
// one, since it says more (which field, which name); other languages say what the code means.
import { t, has, lang } from './i18n/index.js';

/** Text for an error with {code, message} (a ServerError, an ApiError or any Error). */
export function errorText(err) {
  const code = err?.code;
  const key = `error.${code}`;
  if (code && has(key)) return lang() === 'en' && err.message && err.message !== code ? err.message : t(key);
  return err?.message || String(err ?? '');
}
