// The draft screen: while a match's status is `draft` it takes the board's place. The
// challenger picks the offer locally first (tap a god to add it, tap again to take it back)
// and sends it with one button, one `offer` step per version; the others choose in turn, and
// the challenger names the start player (docs/protocol.md "The draft, as steps"). A game
// without powers only names the start player. The server alone says what is legal: the
// client greys what `legal` leaves out, and explains it from the catalog's banned pairs when
// it can.
import { h } from '../dom.js';
import { powerInfo, powerName, banned } from '../catalog.js';

/** The category filters, in the order shown: a label and what a catalog entry must have. */
const FILTERS = [
  { id: 'all', label: 'All', test: () => true },
  { id: 'simple', label: 'Simple', test: (p) => p.category === 'simple' },
  { id: 'advanced', label: 'Advanced', test: (p) => p.category === 'advanced' },
  { id: 'fleece', label: 'Golden Fleece', test: (p) => p.golden_fleece },
  { id: 'hero', label: 'Heroes', test: (p) => p.category === 'hero' },
];
/** A pool larger than this gets the search box and the filters. */
const SEARCH_FROM = 8;
/** A pool larger than this shows two lines of each card's text (the rest on tap). */
const CLAMP_FROM = 12;
/** The line above the heading, by draft mode: a game without powers has no god draft. */
const KICKERS = { none: 'Before the game', fixed: 'The gods', random: 'Gods dealt at random', subset: 'God draft', full: 'God draft' };
/** Why a card cannot be staged while the offer is full: said once, by the counter. */
const FULL = 'The offer is full: send it, or take one back to change it';
const CATEGORY_WORDS = { simple: 'Simple god', advanced: 'Advanced god', hero: 'Hero' };

const info = (key) => powerInfo(key) || { id: key, name: key, text: '', players: [], banned: [], category: '' };
const isHero = (key) => info(key).category === 'hero';
/** A handicap game: one seat plays a hero, the other a god. */
const handicap = (d) => d.hero_seat === 0 || d.hero_seat === 1;
const nameList = (keys) => (keys.length < 2 ? keys.map(powerName).join('') : `${keys.slice(0, -1).map(powerName).join(', ')} and ${powerName(keys[keys.length - 1])}`);
/** "2 gods", or heroes in a heroes-only pool, or powers in a handicap game's mixed one. */
const countOf = (keys, d) => {
  const word = handicap(d) ? ['power', 'powers'] : keys.length && keys.every(isHero) ? ['hero', 'heroes'] : ['god', 'gods'];
  return (n) => `${n} ${word[n === 1 ? 0 : 1]}`;
};

/** `ctx`: the table's context ({play(step) -> {ok|busy|error}, version(), rerender()});
 *  `actions(v)`: the prompt element (#prompt: the start player buttons, the legal steps). */
export function draftScreen(ctx, actions) {
  let staged = []; // the challenger's picks, not sent yet
  let query = ''; // the search box
  let filter = 'all';
  let open = null; // the power whose details are shown
  let sending = null; // {done, of} while the offer goes out
  let error = null; // what the server refused, in words

  const rerender = () => ctx.rerender();

  /** The offer's size: one power per player, or one with the Golden Fleece. */
  const needed = (v) => (v.state.fleece ? 1 : v.state.players || v.seats.length);
  const offerSteps = (v) => new Map((v.state.legal || []).filter((st) => st.kind === 'offer').map((st) => [st.power, st]));

  /** Why `key` cannot go into the offer now (null: it can), for the challenger. */
  const whyNot = (v, key, steps) => {
    const d = v.state.draft;
    if (d.offer.includes(key)) return 'Offered';
    const chosen = [...d.offer, ...staged];
    const clash = chosen.find((o) => banned(o, key));
    if (clash) return `Cannot be played with ${powerName(clash)}`;
    if (handicap(d) && chosen.some((o) => isHero(o) === isHero(key))) return isHero(key) ? 'A hero is in the offer already: the other card must be a god' : 'A god is in the offer already: the other card must be a hero';
    if (!steps.has(key)) return d.offer.length ? 'Not allowed with the gods offered so far' : 'Not allowed in this game';
    if (chosen.length >= needed(v)) return FULL;
    return null;
  };

  const stage = (key) => {
    error = null;
    staged = staged.includes(key) ? staged.filter((k) => k !== key) : [...staged, key];
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
        const kept = sent.length ? ` ${nameList(sent)} ${sent.length === 1 ? 'was' : 'were'} offered and stay${sent.length === 1 ? 's' : ''} offered.` : '';
        error = `${powerName(key)} could not be offered${result?.error ? `: ${result.error}` : ''}. It is off your selection.${kept}`;
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

  const card = (v, key, { reason, pressed, note, onTap, clamp }) => {
    const p = info(key);
    const cls = ['power-card'];
    if (pressed) cls.push('staged');
    if (note === 'offered' || note?.startsWith('taken')) cls.push('chosen');
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
        h('span', { class: 'muted small' }, [CATEGORY_WORDS[p.category] || p.category, p.golden_fleece ? 'Golden Fleece' : null].filter(Boolean).join(' · ')),
        reason && reason !== FULL ? h('span', { class: 'small reason' }, reason) : null,
        note ? h('span', { class: 'small note' }, note) : null,
      ),
      h('button', { class: 'power-info', 'data-power': key, 'aria-label': `About ${p.name}`, 'aria-expanded': String(open === key), title: `About ${p.name}`, onclick: () => { open = open === key ? null : key; rerender(); } }, 'i'),
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
      { class: 'draft-details', id: 'draft-details', role: 'dialog', 'aria-label': `${p.name}: the card`, 'data-power': open },
      h('div', { class: 'row' }, h('h3', {}, p.name), h('button', { class: 'close', 'aria-label': 'Close', onclick: () => { open = null; rerender(); } }, '✕')),
      h('p', { class: 'muted small' }, [CATEGORY_WORDS[p.category] || p.category, p.players.length ? `${p.players.join(', ')} players` : null, p.golden_fleece ? 'may be the Golden Fleece power' : null].filter(Boolean).join(' · ')),
      h('p', { class: 'details-text' }, p.text || 'No text for this power.'),
      bans.length ? h('p', { class: 'small' }, `Never in the same game as ${nameList(bans)}.`) : null,
      act.reason ? h('p', { class: 'small reason' }, act.reason) : null,
      act.label ? h('button', { class: 'primary', id: 'draft-details-act', onclick: () => { open = null; act.run(); } }, act.label) : null,
    );
  };

  /** The search box and the category chips (kept out of the way for small pools). */
  const finder = (keys) => {
    if (keys.length <= SEARCH_FROM) return null;
    const counts = new Map(FILTERS.map((f) => [f.id, keys.filter((k) => f.test(info(k))).length]));
    const input = h('input', { type: 'search', id: 'draft-search', placeholder: 'Search the gods by name or power', 'aria-label': 'Search the gods', value: query, autocomplete: 'off' });
    input.addEventListener('input', () => {
      query = input.value;
      applyFilter(input.closest('#draft'));
    });
    return h(
      'div',
      { class: 'draft-finder' },
      input,
      h(
        'div',
        { class: 'filter-chips', role: 'group', 'aria-label': 'Show' },
        FILTERS.filter((f) => f.id === 'all' || (counts.get(f.id) > 0 && counts.get(f.id) < keys.length)).map((f) =>
          h('button', { class: `filter-chip${filter === f.id ? ' on' : ''}`, 'data-filter': f.id, 'aria-pressed': String(filter === f.id), onclick: () => { filter = f.id; rerender(); } }, `${f.label} (${counts.get(f.id)})`),
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
    return h('p', { class: 'small', id: 'draft-handicap', 'data-hero-seat': d.hero_seat }, `Handicap: ${v.seats[d.hero_seat]?.player.name} plays a hero, ${v.seats[1 - d.hero_seat]?.player.name} a god. One hero and one god are offered.`);
  };

  const offerPhase = (v) => {
    const d = v.state.draft;
    const mine = v.state.decider === v.you && v.you !== null && v.you !== undefined;
    const steps = offerSteps(v);
    const challenger = v.seats[d.challenger]?.player.name;
    const need = needed(v);
    const keys = [...d.pool, ...d.offer.filter((k) => !d.pool.includes(k))];
    const gods = countOf(keys, d);
    const count = d.offer.length + (mine ? staged.length : 0);
    const actionFor = (key) => {
      if (!mine) return { reason: d.offer.includes(key) ? 'Offered' : null };
      if (sending) return {};
      if (staged.includes(key)) return { label: 'Take it out of the offer', run: () => stage(key) };
      const reason = whyNot(v, key, steps);
      return reason ? { reason } : { label: 'Put it into the offer', run: () => stage(key) };
    };
    const tiles = keys.map((key) => {
      const offered = d.offer.includes(key);
      if (!mine) return card(v, key, { note: offered ? 'offered' : null, clamp: keys.length > CLAMP_FROM });
      const isStaged = staged.includes(key);
      const reason = isStaged || offered ? null : whyNot(v, key, steps);
      return card(v, key, { pressed: offered ? undefined : isStaged, note: offered ? 'offered' : isStaged ? 'in your offer · tap to take it back' : null, reason, clamp: keys.length > CLAMP_FROM, onTap: !sending && !offered && (isStaged || !reason) ? () => stage(key) : null });
    });
    return [
      h('h2', {}, mine ? `Offer ${gods(need)}` : `${challenger} is offering ${gods(need)}`),
      h(
        'p',
        { class: 'draft-how' },
        v.state.fleece
          ? `${mine ? 'You are' : `${challenger} is`} the challenger: one god is offered, and it lies beside the board as the Golden Fleece power.`
          : `${mine ? 'You are' : `${challenger} is`} the challenger: ${mine ? 'pick' : 'picks'} one ${gods(1).slice(2)} per player. The others then choose one each, in turn, and the challenger keeps the last.`,
      ),
      handicapNote(v),
      h(
        'p',
        { class: 'draft-counter', id: 'draft-counter', 'data-offered': d.offer.length, 'data-staged': mine ? staged.length : 0, 'data-needed': need, 'aria-live': 'polite' },
        h('strong', {}, `${count} of ${need} offered`),
        mine && staged.length && d.offer.length ? h('span', { class: 'muted' }, ` (${d.offer.length} sent, ${staged.length} not sent yet)`) : mine && staged.length ? h('span', { class: 'muted' }, ' (not sent yet)') : null,
        mine && count >= need && staged.length ? h('span', { class: 'full-note' }, ` · ${FULL.replace('The offer is full: s', 'S')}`) : null,
        mine && !count ? h('span', { class: 'muted' }, ` · tap a ${gods(1).slice(2)} to add it, tap it again to take it back`) : null,
      ),
      error ? h('p', { class: 'error', id: 'draft-error', role: 'alert' }, error) : null,
      finder(keys),
      h('div', { class: 'power-grid' }, tiles),
      keys.length > SEARCH_FROM ? h('p', { class: 'muted', id: 'draft-none', hidden: true }, 'No god matches the search.') : null,
      mine ? sendBar(v, need, gods) : null,
      details(v, actionFor),
    ];
  };

  const sendBar = (v, need, gods) => {
    const n = staged.length;
    const left = need - v.state.draft.offer.length;
    return h(
      'div',
      { class: 'draft-send', id: 'draft-send-bar' },
      h(
        'div',
        { class: 'staged-list', 'aria-label': 'Your offer, not sent yet' },
        n ? staged.map((k) => h('button', { class: 'staged-chip', 'data-power': k, 'aria-label': `Take ${powerName(k)} back`, disabled: Boolean(sending), onclick: () => stage(k) }, powerName(k), ' ✕')) : h('span', { class: 'muted small' }, `Pick ${left === need ? '' : 'the other '}${gods(left)} to offer.`),
      ),
      h(
        'button',
        { class: 'primary', id: 'draft-send', disabled: !n || Boolean(sending), 'data-count': n, onclick: send },
        sending ? `Offering… (${sending.done} of ${sending.of})` : n === 0 ? 'Offer' : n === 1 ? `Offer this ${gods(1).slice(2)}` : `Offer these ${gods(n)}`,
      ),
    );
  };

  const choosePhase = (v) => {
    const st = v.state;
    const d = st.draft;
    const mine = st.decider === v.you && v.you !== null && v.you !== undefined;
    const steps = new Map((st.legal || []).filter((x) => x.kind === 'choose').map((x) => [x.power, x]));
    const decider = v.seats[st.decider]?.player.name;
    const challenger = v.seats[d.challenger]?.player.name;
    const takenBy = (key) => st.powers.indexOf(key);
    const left = d.offer.filter((k) => takenBy(k) < 0);
    const kind = handicap(d) && st.decider === d.hero_seat ? 'hero' : 'god';
    const actionFor = (key) => (steps.has(key) ? { label: `Take ${powerName(key)}`, run: () => ctx.play(steps.get(key)) } : {});
    return [
      h('h2', {}, mine ? `Choose your ${kind}` : `${decider} is choosing a ${kind}`),
      h('p', { class: 'draft-how' }, `The challenger, ${challenger}, offered ${nameList(d.offer)}. Each player chooses one in turn; the challenger keeps the last.`),
      handicapNote(v),
      h('p', { class: 'draft-counter', id: 'draft-left', 'data-left': left.length }, h('strong', {}, `Left: ${nameList(left)}`), mine ? h('span', { class: 'muted' }, ' · tap the one you want') : null),
      h(
        'div',
        { class: 'power-grid' },
        d.offer.map((key) => {
          const who = takenBy(key);
          const note = who >= 0 ? `taken by ${v.seats[who]?.player.name}` : null;
          const reason = mine && who < 0 && !steps.has(key) ? (handicap(d) ? `Not yours: you take the ${kind}` : 'Not yours to take') : null;
          return card(v, key, { note, reason, onTap: steps.has(key) ? () => ctx.play(steps.get(key)) : null });
        }),
      ),
      details(v, actionFor),
    ];
  };

  const startPhase = (v) => {
    const st = v.state;
    const d = st.draft;
    const mine = st.decider === v.you && v.you !== null && v.you !== undefined;
    const challenger = v.seats[d.challenger]?.player.name;
    const withPowers = d.mode !== 'none' && (st.powers || []).some(Boolean);
    return [
      h('h2', {}, 'Who starts?'),
      h('p', { class: 'draft-how' }, mine ? 'You name the start player: the start player places workers first and takes the first turn.' : `${challenger} names the start player.`),
      withPowers
        ? h('div', { class: 'power-grid' }, v.seats.map((seat, i) => (st.powers[i] ? card(v, st.powers[i], { note: `${seat.player.name}'s` }) : null)))
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
      if (v.status !== 'draft') {
        open = null;
        error = null;
      }
      return `${staged.join(',')}|${filter}|${open}|${sending ? sending.done : '-'}|${error}`;
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
        h('p', { class: 'draft-kicker muted small' }, KICKERS[d.mode] || 'Before the game'),
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
