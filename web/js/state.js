// What the screens share about this tab's player: the signed-in guest, the connection, the
// lobby it sits in and its place in a rated queue. app.js owns the one instance and hands it
// to each screen inside its context (app.js, "The screens' context"); the module imports
// nothing, so nothing can import the app back through it.

/** A tab's state before sign-in. */
export function createState() {
  return {
    me: null, // {id, name, token, username}: username set once the guest has an account
    conn: null, // the Connection (net.js) while signed in
    lobby: null, // the lobby object from the last `lobby` event, or null
    queue: null, // the last `queue` event while waiting, or null
    queued: null, // {match, queue, clock}: the queue the last matched game came from (this tab)
    joining: null, // {queue, clock}: the last queue this tab asked to join
  };
}
