// The account: a guest claims its player with a username and a password (ratings and games stay
// with it) and can then sign in on another device; an account changes its password or signs
// this device out (docs/api.md "Accounts").
import { h, mount } from '../dom.js';
import { account as fetchAccount, signUp, changePassword } from '../api.js';

export function accountScreen(ctx) {
  const { screen } = ctx;
  const box = h('div', { class: 'card narrow', id: 'account' }, h('p', { class: 'muted' }, 'Loading…'));
  mount(screen, box);
  let alive = true;

  const field = (id, label, attrs) => [h('label', { for: id }, label), h('input', { id, required: true, ...attrs })];

  const renderGuest = (me) => {
    const error = h('p', { class: 'error', role: 'alert', id: 'account-error' });
    const [userLabel, username] = field('account-username', 'Username', { maxlength: 24, autocomplete: 'username', placeholder: '3-24 characters' });
    const [passLabel, password] = field('account-password', 'Password', { type: 'password', autocomplete: 'new-password', placeholder: 'at least 8 characters' });
    mount(
      box,
      h(
        'form',
        {
          onsubmit: async (e) => {
            e.preventDefault();
            error.textContent = '';
            try {
              const made = await signUp(ctx.state.me.token, username.value.trim(), password.value);
              ctx.state.me.username = made.username;
              ctx.saveMe();
              ctx.toast('Account created: sign in with it on any device.');
              if (alive) render({ ...me, username: made.username });
            } catch (err) {
              error.textContent = err.message;
            }
          },
        },
        h('h1', {}, 'Keep your player'),
        h('p', {}, `You play as ${me.name}, a guest on this browser. Choose a username and a password to keep your ratings and games and to sign in on another device.`),
        userLabel,
        username,
        passLabel,
        password,
        h('button', { type: 'submit', class: 'primary', id: 'account-create' }, 'Create account'),
        error,
      ),
    );
  };

  const renderAccount = (me) => {
    const error = h('p', { class: 'error', role: 'alert', id: 'password-error' });
    const [oldLabel, oldPassword] = field('old-password', 'Current password', { type: 'password', autocomplete: 'current-password' });
    const [newLabel, newPassword] = field('new-password', 'New password', { type: 'password', autocomplete: 'new-password' });
    mount(
      box,
      h('h1', {}, 'Account'),
      h('p', {}, 'Signed in as ', h('strong', { id: 'account-name' }, me.username), ` (you play as ${me.name}). `, h('a', { href: `#/player/${me.id}` }, 'Your ratings and games')),
      h(
        'form',
        {
          onsubmit: async (e) => {
            e.preventDefault();
            error.textContent = '';
            try {
              await changePassword(ctx.state.me.token, oldPassword.value, newPassword.value);
              oldPassword.value = '';
              newPassword.value = '';
              ctx.toast('Password changed; your other devices are signed out.');
            } catch (err) {
              error.textContent = err.message;
            }
          },
        },
        h('h2', {}, 'Change password'),
        oldLabel,
        oldPassword,
        newLabel,
        newPassword,
        h('button', { type: 'submit', id: 'change-password' }, 'Change password'),
        error,
      ),
      h('p', {}, h('button', { id: 'sign-out', onclick: () => ctx.signOut() }, 'Sign out of this device')),
    );
  };

  const render = (me) => (me.username ? renderAccount(me) : renderGuest(me));

  fetchAccount(ctx.state.me.token)
    .then((me) => {
      if (!alive) return;
      if ((me.username || null) !== (ctx.state.me.username || null)) {
        ctx.state.me.username = me.username || undefined;
        ctx.saveMe();
      }
      render(me);
    })
    .catch((err) => {
      if (!alive) return;
      const text = err.status === 503 ? 'Accounts need the server’s database, which this server runs without.' : err.message;
      mount(box, h('h1', {}, 'Account'), h('p', { class: 'error', id: 'account-error' }, text));
    });
  return () => {
    alive = false;
  };
}
