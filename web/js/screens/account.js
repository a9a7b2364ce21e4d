// The account: a guest claims its player with a username and a password (ratings and games stay
// with it) and can then sign in on another device; an account changes its password or signs
// this device out (docs/api.md "Accounts").
import { h, mount } from '../dom.js';
import { account as fetchAccount, signUp, changePassword } from '../api.js';
import { t } from '../i18n/index.js';
import { errorText } from '../errors.js';

export function accountScreen(ctx) {
  const { screen } = ctx;
  const box = h('div', { class: 'card narrow', id: 'account' }, h('p', { class: 'muted' }, t('common.loading')));
  mount(screen, box);
  let alive = true;

  const field = (id, label, attrs) => [h('label', { for: id }, label), h('input', { id, required: true, ...attrs })];

  const renderGuest = (me) => {
    const error = h('p', { class: 'error', role: 'alert', id: 'account-error' });
    const [userLabel, username] = field('account-username', t('account.username'), { maxlength: 24, autocomplete: 'username', placeholder: t('account.usernameHint') });
    const [passLabel, password] = field('account-password', t('account.password'), { type: 'password', autocomplete: 'new-password', placeholder: t('account.passwordHint') });
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
              ctx.toast(t('account.created'));
              if (alive) render({ ...me, username: made.username });
            } catch (err) {
              error.textContent = errorText(err);
            }
          },
        },
        h('h1', {}, t('account.keepTitle')),
        h('p', {}, t('account.keepText', { name: me.name })),
        userLabel,
        username,
        passLabel,
        password,
        h('button', { type: 'submit', class: 'primary', id: 'account-create' }, t('account.create')),
        error,
      ),
    );
  };

  const renderAccount = (me) => {
    const error = h('p', { class: 'error', role: 'alert', id: 'password-error' });
    const [oldLabel, oldPassword] = field('old-password', t('account.currentPassword'), { type: 'password', autocomplete: 'current-password' });
    const [newLabel, newPassword] = field('new-password', t('account.newPassword'), { type: 'password', autocomplete: 'new-password' });
    mount(
      box,
      h('h1', {}, t('nav.account')),
      h('p', {}, `${t('account.signedInAs')} `, h('strong', { id: 'account-name' }, me.username), ` ${t('account.playAs', { name: me.name })} `, h('a', { href: `#/player/${me.id}` }, t('account.yourGames'))),
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
              ctx.toast(t('account.passwordChanged'));
            } catch (err) {
              error.textContent = errorText(err);
            }
          },
        },
        h('h2', {}, t('account.changePassword')),
        oldLabel,
        oldPassword,
        newLabel,
        newPassword,
        h('button', { type: 'submit', id: 'change-password' }, t('account.changePassword')),
        error,
      ),
      h('p', {}, h('button', { id: 'sign-out', onclick: () => ctx.signOut() }, t('account.signOut'))),
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
      const text = err.status === 503 ? t('account.needsDatabase') : errorText(err);
      mount(box, h('h1', {}, t('nav.account')), h('p', { class: 'error', id: 'account-error' }, text));
    });
  return () => {
    alive = false;
  };
}
