// The draft screen: while a match's status is `draft` it takes the board's place. The
// challenger picks the offer locally first (tap a god to add it, tap again to take it back)
// and sends it with one button, one `offer` step per version; the others choose in turn, the
// same way (tap the god wanted, tap again or its chip to put it back, then one button sends
// the `choose`), and the challenger names the start player (docs/protocol.md "The draft, as steps"). A game
// without powers only names the start player. The server alone says what is legal: the
// client greys what `legal` leaves out, and explains it from the catalog's banned pairs when
// it can.
import { h, on } from '../dom.js';
import { nameOf } from '../bots.js';
import { powerInfo, powerName, powerText, banned } from '../catalog.js';
import { t, list } from '../i18n/index.js';

/** The category filters, in the order shown: what a catalog entry must have (the label is
 *  'draft.filter.<id>'). */
const FILTERS = [
  { id: 'all', test: () => true },
  { id: 'simple', test: (p) => p.category === 'simple' },
  { id: 'advanced', test: (p) => p.category === 'advanced' },
  { id: 'fleece', test: (p) => p.golden_fleece },
  { id: 'hero', test: (p) => p.category === 'hero' },
];
/** A pool larger than this gets the search box and the filters. */
const SEARCH_FROM = 8;
/** A pool larger than this shows two lines of each card's text (the rest on tap). */
const CLAMP_FROM = 12;
/** The line above the heading, by draft mode (the key 'draft.kicker.<mode>'): a game without
 *  powers has no god draft. */
const KICKERS = new Set(['none', 'fixed', 'random', 'subset', 'full']);
/** Why a card cannot be staged while the offer is full: said once, by the counter. */
const FULL = 'draft.full';
const CATEGORIES = new Set(['simple', 'advanced', 'hero']);
const categoryWord = (category) => (CATEGORIES.has(category) ? t(`draft.category.${category}`) : category);

/** A catalog entry with its name and text in the current language. */
const info = (key) => {
  const p = powerInfo(key) || { id: key, name: key, text: '', players: [], banned: [], category: '' };
  return { ...p, name: powerName(key), text: powerText(key) || p.text };
};
const isHero = (key) => info(key).category === 'hero';
/** A handicap game: one seat plays a hero, the other a god. */
const handicap = (d) => d.hero_seat === 0 || d.hero_seat === 1;
const nameList = (keys) => list(keys.map(powerName));
/** What the offer is made of: gods, or heroes in a heroes-only pool, or powers in a handicap
 *  game's mixed one. */
const wordOf = (keys, d) => (handicap(d) ? 'power' : keys.length && keys.every(isHero) ? 'hero' : 'god');
/** "2 gods" ('draft.count.<word>'). */
const countOf = (keys, d) => {
  const word = wordOf(keys, d);
  return (n) => t(`draft.count.${word}`, { count: n });
};

/** `ctx`: the table's context ({play(step) -> {ok|busy|error}, version(), rerender()});
 *  `actions(v)`: the prompt element (#prompt: the start player buttons, the legal steps). */
export function draftScreen(ctx, actions) {
  let staged = []; // the challenger's picks, not sent yet
  let picked = null; // the power this player chose from the offer, not sent yet
  let query = ''; // the search box
  let filter = 'all';
  let open = null; // the power whose details are shown
  let sending = null; // {done, of} while the offer goes out
  let error = null; // what the server refused, in words

  const rerender = () => ctx.rerender();

  /** Opens the details of `key` (null: closes them). The keyboard follows: into the panel's
   *  close button as it opens, back to the card's "i" button as it closes. */
  const showDetails = (key) => {
    const was = open;
    open = key;
    rerender();
    const target = key ? '#draft-details .close' : `.power-info[data-power="${was}"]`;
    queueMicrotask(() => document.querySelector(target)?.focus());
  };

  /** The offer's size: one power per player, or one with the Golden Fleece. */
  const needed = (v) => (v.state.fleece ? 1 : v.state.players || v.seats.length);
  const offerSteps = (v) => new Map((v.state.legal || []).filter((st) => st.kind === 'offer').map((st) => [st.power, st]));

  /** Why `key` cannot go into the offer now (null: it can), for the challenger. */
  const whyNot = (v, key, steps) => {
    const d = v.state.draft;
    if (d.offer.includes(key)) return t('draft.offered');
    const chosen = [...d.offer, ...staged];
    const clash = chosen.find((o) => banned(o, key));
    if (clash) return t('draft.banned', { power: powerName(clash) });
    if (handicap(d) && chosen.some((o) => isHero(o) === isHero(key))) return isHero(key) ? t('draft.heroAlready') : t('draft.godAlready');
    if (!steps.has(key)) return d.offer.length ? t('draft.notWithOffer') : t('draft.notInGame');
    if (chosen.length >= needed(v)) return t(FULL);
    return null;
  };

  const stage = (key) => {
    error = null;
    staged = staged.includes(key) ? staged.filter((k) => k !== key) : [...staged, key];
    rerender();
  };

  /** Picks `key` from the offer (or, picked already, puts it back); nothing is sent. */
  const pick = (key) => {
    error = null;
    picked = picked === key ? null : key;
    rerender();
  };

  /** Sends the power picked from the offer: one `choose` step. */
  const sendChoice = async (step) => {
    if (sending || !step) return;
    error = null;
    sending = { done: 0, of: 1 };
    rerender();
    const result = await ctx.play(step);
    sending = null;
    // A refusal is said and the pick dropped; a step already in flight (busy) keeps it.
    if (!result?.ok && !result?.busy) {
      error = t(result?.error ? 'draft.chooseRefusedBecause' : 'draft.chooseRefused', { power: powerName(step.power), error: result?.error });
      picked = null;
    }
    rerender();
  };

  /** Waits until the match moves past version `before` (the step's patch), at most 5 s. */
  const nextVersion = async (before) => {
    for (let waited = 0; waited < 5000 && !(ctx.version() > before); waited += 25) await new Promise((r) => setTimeout(r, 25));
  };

  /** Sends the staged offer, one step per version; stops at the first refusal. */
  const send = async () => {
    if (sending || !staged.length) return;
    error = null;
    const total = staged.length;
    sending = { done: 0, of: total };
    rerender();
    const sent = [];
    for (const key of [...staged]) {
      const before = ctx.version();
      const result = await ctx.play({ kind: 'offer', power: key });
      if (!result?.ok) {
        staged = staged.filter((k) => k !== key);
        const kept = sent.length ? ` ${t('draft.kept', { count: sent.length, powers: nameList(sent) })}` : '';
        error = `${t(result?.error ? 'draft.refusedBecause' : 'draft.refused', { power: powerName(key), error: result?.error })}${kept}`;
        break;
      }
      sent.push(key);
      staged = staged.filter((k) => k !== key);
      sending = { done: sent.length, of: total };
      await nextVersion(before);
    }
    sending = null;
    rerender();
  };

  const card = (v, key, { reason, pressed, note, chosenNote = false, onTap, clamp }) => {
    const p = info(key);
    const cls = ['power-card'];
    if (pressed) cls.push('staged');
    if (note === t('draft.noteOffered') || chosenNote) cls.push('chosen');
    if (reason) cls.push('blocked');
    if (clamp) cls.push('clamp');
    const tile = h(
      'div',
      { class: `power-tile${open === key ? ' open' : ''}`, 'data-power': key, 'data-category': p.category || '' },
      h(
        'button',
        {
          class: cls.join(' '),
          'data-power': key,
          disabled: !onTap,
          'aria-pressed': pressed === undefined ? null : String(pressed),
          title: reason || null,
          onclick: () => onTap?.(),
        },
        h('strong', {}, p.name),
        h('span', { class: 'power-text small' }, p.text),
        h('span', { class: 'muted small' }, [categoryWord(p.category), p.golden_fleece ? t('power.goldenFleece') : null].filter(Boolean).join(' · ')),
        reason && reason !== t(FULL) ? h('span', { class: 'small reason' }, reason) : null,
        note ? h('span', { class: 'small note' }, note) : null,
      ),
      h('button', { class: 'power-info', 'data-power': key, 'aria-label': t('draft.about', { power: p.name }), 'aria-expanded': String(open === key), title: t('draft.about', { power: p.name }), onclick: () => showDetails(open === key ? null : key) }, 'i'),
    );
    return tile;
  };

  /** The whole card of the power opened, with what tapping it would do. */
  const details = (v, actionFor) => {
    if (!open) return null;
    const p = info(open);
    const act = actionFor(open);
    const bans = (p.banned || []).filter((b) => powerInfo(b));
    return h(
      'div',
      {
        class: 'draft-details',
        id: 'draft-details',
        role: 'dialog',
        'aria-label': t('draft.theCard', { power: p.name }),
        'data-power': open,
        // Escape closes the panel, as it closes any dialog.
        onkeydown: (e) => {
          if (e.key !== 'Escape') return;
          e.preventDefault();
          showDetails(null);
        },
      },
      h('div', { class: 'row' }, h('h3', {}, p.name), h('button', { class: 'close', 'aria-label': t('draft.close'), onclick: () => showDetails(null) }, '✕')),
      h('p', { class: 'muted small' }, [categoryWord(p.category), p.players.length ? t('draft.players', { players: p.players.join(', ') }) : null, p.golden_fleece ? t('draft.mayBeFleece') : null].filter(Boolean).join(' · ')),
      h('p', { class: 'details-text' }, p.text || t('draft.noText')),
      bans.length ? h('p', { class: 'small' }, t('draft.never', { powers: nameList(bans) })) : null,
      act.reason ? h('p', { class: 'small reason' }, act.reason) : null,
      act.label ? h('button', { class: 'primary', id: 'draft-details-act', onclick: () => { open = null; act.run(); } }, act.label) : null,
    );
  };

  /** The search box and the category chips (kept out of the way for small pools). */
  const finder = (keys) => {
    if (keys.length <= SEARCH_FROM) return null;
    const counts = new Map(FILTERS.map((f) => [f.id, keys.filter((k) => f.test(info(k))).length]));
    const input = h('input', { type: 'search', id: 'draft-search', placeholder: t('draft.searchPlaceholder'), 'aria-label': t('draft.search'), value: query, autocomplete: 'off' });
    // The handler runs on the input on screen, which a redraw keeps (dom.js morph), not on
    // this one: it reads the event's.
    on(input, 'input', (e) => {
      query = e.currentTarget.value;
      applyFilter(e.currentTarget.closest('#draft'));
    });
    return h(
      'div',
      { class: 'draft-finder' },
      input,
      h(
        'div',
        { class: 'filter-chips', role: 'group', 'aria-label': t('draft.show') },
        FILTERS.filter((f) => f.id === 'all' || (counts.get(f.id) > 0 && counts.get(f.id) < keys.length)).map((f) =>
          h('button', { class: `filter-chip${filter === f.id ? ' on' : ''}`, 'data-filter': f.id, 'aria-pressed': String(filter === f.id), onclick: () => { filter = f.id; rerender(); } }, `${t(`draft.filter.${f.id}`)} (${counts.get(f.id)})`),
        ),
      ),
    );
  };

  /** Hides the cards the search and the chip leave out (in place: typing keeps the focus). */
  const applyFilter = (root) => {
    if (!root) return;
    const words = query.trim().toLowerCase();
    const f = FILTERS.find((x) => x.id === filter) || FILTERS[0];
    let shown = 0;
    for (const tile of root.querySelectorAll('.power-grid .power-tile')) {
      const p = info(tile.dataset.power);
      const hit = f.test(p) && (!words || `${p.name} ${p.text}`.toLowerCase().includes(words));
      tile.hidden = !hit;
      if (hit) shown += 1;
    }
    const none = root.querySelector('#draft-none');
    if (none) none.hidden = shown > 0;
  };

  /** The handicap game: one seat gets a hero, the other a god; each takes only its kind. */
  const handicapNote = (v) => {
    const d = v.state.draft;
    if (!handicap(d)) return null;
    return h('p', { class: 'small', id: 'draft-handicap', 'data-hero-seat': d.hero_seat }, t('draft.handicap', { hero: nameOf(v.seats[d.hero_seat]?.player), god: nameOf(v.seats[1 - d.hero_seat]?.player) }));
  };

  const offerPhase = (v) => {
    const d = v.state.draft;
    const mine = v.state.decider === v.you && v.you !== null && v.you !== undefined;
    const steps = offerSteps(v);
    const challenger = nameOf(v.seats[d.challenger]?.player);
    const need = needed(v);
    const keys = [...d.pool, ...d.offer.filter((k) => !d.pool.includes(k))];
    const gods = countOf(keys, d);
    const word = wordOf(keys, d);
    const count = d.offer.length + (mine ? staged.length : 0);
    const actionFor = (key) => {
      if (!mine) return { reason: d.offer.includes(key) ? t('draft.offered') : null };
      if (sending) return {};
      if (staged.includes(key)) return { label: t('draft.takeOut'), run: () => stage(key) };
      const reason = whyNot(v, key, steps);
      return reason ? { reason } : { label: t('draft.putIn'), run: () => stage(key) };
    };
    const tiles = keys.map((key) => {
      const offered = d.offer.includes(key);
      if (!mine) return card(v, key, { note: offered ? t('draft.noteOffered') : null, clamp: keys.length > CLAMP_FROM });
      const isStaged = staged.includes(key);
      const reason = isStaged || offered ? null : whyNot(v, key, steps);
      return card(v, key, { pressed: offered ? undefined : isStaged, note: offered ? t('draft.noteOffered') : isStaged ? t('draft.noteStaged') : null, reason, clamp: keys.length > CLAMP_FROM, onTap: !sending && !offered && (isStaged || !reason) ? () => stage(key) : null });
    });
    return [
      h('h2', {}, mine ? t('draft.offerTitle', { what: gods(need) }) : t('draft.offeringTitle', { name: challenger, what: gods(need) })),
      h(
        'p',
        { class: 'draft-how' },
        v.state.fleece
          ? t(mine ? 'draft.howFleece.you' : 'draft.howFleece', { name: challenger })
          : t(mine ? `draft.how.${word}.you` : `draft.how.${word}`, { name: challenger }),
      ),
      handicapNote(v),
      h(
        'p',
        { class: 'draft-counter', id: 'draft-counter', 'data-offered': d.offer.length, 'data-staged': mine ? staged.length : 0, 'data-needed': need, 'aria-live': 'polite' },
        h('strong', {}, t('draft.counter', { count, need })),
        mine && staged.length && d.offer.length ? h('span', { class: 'muted' }, ` ${t('draft.counterSent', { sent: d.offer.length, staged: staged.length })}`) : mine && staged.length ? h('span', { class: 'muted' }, ` ${t('draft.counterNotSent')}`) : null,
        mine && count >= need && staged.length ? h('span', { class: 'full-note' }, ` · ${t('draft.fullNote')}`) : null,
        mine && !count ? h('span', { class: 'muted' }, ` · ${t(`draft.tapHint.${word}`)}`) : null,
      ),
      error ? h('p', { class: 'error', id: 'draft-error', role: 'alert' }, error) : null,
      finder(keys),
      h('div', { class: 'power-grid' }, tiles),
      keys.length > SEARCH_FROM ? h('p', { class: 'muted', id: 'draft-none', hidden: true }, t('draft.noMatch')) : null,
      mine ? sendBar(v, need, gods, word) : null,
      details(v, actionFor),
    ];
  };

  const sendBar = (v, need, gods, word) => {
    const n = staged.length;
    const left = need - v.state.draft.offer.length;
    return h(
      'div',
      { class: 'draft-send', id: 'draft-send-bar' },
      h(
        'div',
        { class: 'staged-list', 'aria-label': t('draft.stagedList') },
        n ? staged.map((k) => h('button', { class: 'staged-chip', 'data-power': k, 'aria-label': t('draft.takeBack', { power: powerName(k) }), disabled: Boolean(sending), onclick: () => stage(k) }, powerName(k), ' ✕')) : h('span', { class: 'muted small' }, t(left === need ? 'draft.pick' : 'draft.pickOther', { what: gods(left) })),
      ),
      h(
        'button',
        { class: 'primary', id: 'draft-send', disabled: !n || Boolean(sending), 'data-count': n, onclick: send },
        sending ? t('draft.offering', { done: sending.done, of: sending.of }) : n === 0 ? t('draft.offer') : n === 1 ? t(`draft.offerThis.${word}`) : t('draft.offerThese', { what: gods(n) }),
      ),
    );
  };

  const choosePhase = (v) => {
    const st = v.state;
    const d = st.draft;
    const mine = st.decider === v.you && v.you !== null && v.you !== undefined;
    const steps = new Map((st.legal || []).filter((x) => x.kind === 'choose').map((x) => [x.power, x]));
    const decider = nameOf(v.seats[st.decider]?.player);
    const challenger = nameOf(v.seats[d.challenger]?.player);
    const takenBy = (key) => st.powers.indexOf(key);
    const left = d.offer.filter((k) => takenBy(k) < 0);
    const kind = handicap(d) && st.decider === d.hero_seat ? 'hero' : 'god';
    const actionFor = (key) => {
      if (!steps.has(key) || sending) return {};
      return picked === key ? { label: t('draft.putBack'), run: () => pick(key) } : { label: t('draft.pickThis'), run: () => pick(key) };
    };
    return [
      h('h2', {}, mine ? t(`draft.chooseYour.${kind}`) : t(`draft.choosing.${kind}`, { name: decider })),
      h('p', { class: 'draft-how' }, t('draft.chooseHow', { name: challenger, powers: nameList(d.offer) })),
      handicapNote(v),
      h(
        'p',
        { class: 'draft-counter', id: 'draft-left', 'data-left': left.length, 'data-picked': mine && picked ? picked : '', 'aria-live': 'polite' },
        h('strong', {}, t('draft.left', { powers: nameList(left) })),
        mine && picked ? h('span', { class: 'muted' }, ` · ${t('draft.pickedNotSent', { power: powerName(picked) })}`) : mine ? h('span', { class: 'muted' }, ` · ${t('draft.tapWanted')}`) : null,
      ),
      error ? h('p', { class: 'error', id: 'draft-error', role: 'alert' }, error) : null,
      h(
        'div',
        { class: 'power-grid' },
        d.offer.map((key) => {
          const who = takenBy(key);
          const isPicked = mine && picked === key;
          const note = who >= 0 ? t('draft.takenBy', { name: nameOf(v.seats[who]?.player) }) : isPicked ? t('draft.notePicked') : null;
          const reason = mine && who < 0 && !steps.has(key) ? (handicap(d) ? t(`draft.notYours.${kind}`) : t('draft.notYoursToTake')) : null;
          return card(v, key, { pressed: mine && steps.has(key) ? isPicked : undefined, note, chosenNote: who >= 0, reason, onTap: steps.has(key) && !sending ? () => pick(key) : null });
        }),
      ),
      mine ? chooseBar(steps) : null,
      details(v, actionFor),
    ];
  };

  /** The chosen power, put back by its chip, and the button that sends the choice. */
  const chooseBar = (steps) =>
    h(
      'div',
      { class: 'draft-send', id: 'draft-choose-bar' },
      h(
        'div',
        { class: 'staged-list', 'aria-label': t('draft.pickedList') },
        picked
          ? h('button', { class: 'staged-chip', 'data-power': picked, 'aria-label': t('draft.putBackPower', { power: powerName(picked) }), disabled: Boolean(sending), onclick: () => pick(picked) }, powerName(picked), ' ✕')
          : h('span', { class: 'muted small' }, t('draft.pickOne')),
      ),
      h(
        'button',
        { class: 'primary', id: 'draft-take', disabled: !picked || Boolean(sending), 'data-power': picked || '', onclick: () => sendChoice(steps.get(picked)) },
        sending ? t('draft.taking') : picked ? t('draft.take', { power: powerName(picked) }) : t('draft.takeNone'),
      ),
    );

  const startPhase = (v) => {
    const st = v.state;
    const d = st.draft;
    const mine = st.decider === v.you && v.you !== null && v.you !== undefined;
    const challenger = nameOf(v.seats[d.challenger]?.player);
    const withPowers = d.mode !== 'none' && (st.powers || []).some(Boolean);
    return [
      h('h2', {}, t('draft.whoStarts')),
      h('p', { class: 'draft-how' }, mine ? t('draft.startHow.you') : t('draft.startHow', { name: challenger })),
      withPowers
        ? h('div', { class: 'power-grid' }, v.seats.map((seat, i) => (st.powers[i] ? card(v, st.powers[i], { note: t('draft.whose', { name: nameOf(seat.player) }) }) : null)))
        : null,
      actions(v),
      withPowers ? details(v, () => ({})) : null,
    ];
  };

  return {
    /** Brings the staged offer in line with view `v`; returns the local state, as a key. */
    prepare(v) {
      const d = v.state.draft;
      const mine = v.state.decider === v.you;
      if (!d || v.status !== 'draft' || v.state.phase !== 'offer' || !mine) {
        if (!sending) staged = [];
      } else staged = staged.filter((k) => d.pool.includes(k) && !d.offer.includes(k));
      // A pick stands while it may still be chosen (the turn to choose is still this player's).
      const choosable = new Set((v.state.legal || []).filter((x) => x.kind === 'choose').map((x) => x.power));
      if (!sending && (!d || v.status !== 'draft' || v.state.phase !== 'choose' || !mine || !choosable.has(picked))) picked = null;
      if (v.status !== 'draft') {
        open = null;
        error = null;
      }
      return `${staged.join(',')}|${picked}|${filter}|${open}|${sending ? sending.done : '-'}|${error}`;
    },
    /** The draft in the board's place, or null once the draft is over. */
    main(v) {
      const d = v.state.draft;
      if (!d || v.status !== 'draft') return null;
      const phase = v.state.phase;
      const body = phase === 'offer' ? offerPhase(v) : phase === 'choose' ? choosePhase(v) : startPhase(v);
      const el = h(
        'section',
        { class: 'draft draft-screen', id: 'draft', 'data-phase': phase, 'data-mode': d.mode || '' },
        h('p', { class: 'draft-kicker muted small' }, t(`draft.kicker.${KICKERS.has(d.mode) ? d.mode : 'none'}`)),
        body,
      );
      applyFilter(el);
      // A redraw while typing in the search box keeps the focus there.
      const typing = document.activeElement?.id === 'draft-search';
      if (typing) {
        queueMicrotask(() => {
          const input = el.querySelector('#draft-search');
          input?.focus();
          input?.setSelectionRange(input.value.length, input.value.length);
        });
      }
      return el;
    },
  };
}
