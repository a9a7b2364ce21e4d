// Splendor's table in the match screen (docs/protocol.md "Splendor"): the nobles, three rows
// of face-up cards with their decks (level 3 on top), the token supply, the action bar and
// the players' hands. Everything clickable is read off `legal`: gems are picked in the supply
// until the pick is a legal take, then confirmed; a card or deck opens a small menu of what it
// offers (buy, with each way to pay, or reserve); in phase `return` a click on one of your
// tokens returns it, in phase `noble` a click on a noble chooses it.
import { h } from '../dom.js';
import { nameOf } from '../bots.js';
import { TOKENS, gemName, LEVEL_NUMERALS, total } from './gems.js';
import { cardFace, cardBack, nobleTile, tokenChip, clickable, sr } from './pieces.js';
import { addable, takeFor, cardSteps, deckStep, returnStep, nobleStep, prompt, stepText } from './steps.js';
import { handPanel, seatOrder, SEAT_COLORS } from './hands.js';
import { logWords, decorate } from './log.js';
import { splendorWords } from './words.js';
import { lastTurnLines } from '../history.js';
import { lineContent } from '../log-lines.js';
import { t, num, list } from '../i18n/index.js';

const REASONS = new Set(['resign', 'timeout']);

/** `ctx`: as screens/game.js gives it. `readOnly`: a position to look at (the replay), with no
 *  action bar. */
export function splendorTable(ctx, { readOnly = false } = {}) {
  let pick = []; // gems picked in the supply, not yet taken
  let menu = null; // {card} or {level}: the open menu of what a card or deck offers
  let view = null;
  let seenView = null;
  let fresh = new Set(); // face-up cards that arrived with the last step, drawn with a flourish
  const nobles = new Map(); // every noble seen on the table, for the hands that received one by id

  const legalOf = (v) => v.state.legal || [];
  const send = (step) => {
    pick = [];
    menu = null;
    ctx.play(step);
  };

  const togglePick = (gem) => {
    const legal = legalOf(view);
    if (addable(legal, pick).has(gem)) pick = [...pick, gem];
    else if (pick.includes(gem)) pick.splice(pick.lastIndexOf(gem), 1);
    menu = null;
    ctx.rerender();
  };

  const unpick = (i) => {
    pick.splice(i, 1);
    ctx.rerender();
  };

  const open = (target) => {
    menu = target;
    pick = [];
    ctx.rerender();
  };

  const close = () => {
    menu = null;
    ctx.rerender();
  };

  // ---- The table: nobles, rows and decks, the supply ----

  const renderNobles = (v) => {
    const legal = legalOf(v);
    return h(
      'div',
      { class: 'sp-nobles', id: 'sp-nobles' },
      v.state.nobles.map((n) => {
        const step = nobleStep(legal, n.id);
        const tile = nobleTile(n, { cls: step ? 'legal' : '' });
        if (step) clickable(tile, () => send(step), null, t('splendor.sr.choose'));
        return tile;
      }),
    );
  };

  const renderRow = (v, level) => {
    const st = v.state;
    const legal = legalOf(v);
    const row = st.rows[level - 1] || [];
    const deckCount = st.decks[level - 1];
    const blind = deckStep(legal, level);
    const deck = cardBack(level, { count: deckCount, cls: `deck${blind ? ' legal' : ''}${menu && menu.level === level ? ' chosen' : ''}`, attrs: { 'data-deck': level, 'data-count': deckCount } });
    if (blind) {
      deck.append(sr(` ${t('splendor.sr.reserveUnseen')}`));
      clickable(deck, () => open({ level }));
    }
    return h(
      'div',
      { class: 'sp-row', 'data-level': level },
      deck,
      row.map((card, slot) => {
        if (!card) return h('div', { class: 'sp-slot empty', 'data-slot': slot });
        const { reserve, buys } = cardSteps(legal, card.id);
        const cls = [];
        if (reserve || buys.length) cls.push('legal');
        if (buys.length) cls.push('affordable');
        if (fresh.has(card.id)) cls.push('fresh');
        if (menu && menu.card === card.id) cls.push('chosen');
        const face = cardFace(card, { cls: cls.join(' ') });
        if (reserve || buys.length) clickable(face, () => open({ card: card.id }));
        return h('div', { class: 'sp-slot', 'data-slot': slot }, face);
      }),
    );
  };

  const renderSupply = (v) => {
    const st = v.state;
    const legal = legalOf(v);
    const can = addable(legal, pick);
    return h(
      'div',
      { class: 'sp-supply', id: 'sp-supply', title: t('splendor.bank') },
      TOKENS.map((g) => {
        const picked = pick.filter((x) => x === g).length;
        const left = st.supply[g] - picked;
        const cls = [];
        if (g !== 'gold' && can.has(g)) cls.push('legal');
        if (picked) cls.push('picked');
        const chip = tokenChip(g, left, { cls: cls.join(' '), 'data-supply': st.supply[g] });
        if (g !== 'gold' && (can.has(g) || picked)) clickable(chip, () => togglePick(g), t(picked ? 'splendor.pickOrPutBack' : 'splendor.pick', { gem: gemName(g), colour: t(`colour.${g}`), count: left }));
        return chip;
      }),
    );
  };

  // ---- What the last turn did, above the table ----

  /** The latest turn in words ("Bob took 2 ruby"), so a move made while one looked away is
   *  seen at once; the notation as data-notation. Nothing before the first step. */
  const renderLast = (v) => {
    const { lines, seat } = lastTurnLines(v.history, ctx.authors?.() || []);
    if (!lines.length) return null;
    const notation = lines.join('; ');
    return h(
      'div',
      { class: 'sp-last', id: 'sp-last', 'data-seat': seat ?? '', 'data-notation': notation },
      h('span', { class: 'sp-last-label' }, t('splendor.lastTurn')),
      h('span', {}, lineContent({ name: nameOf(v.seats[seat]?.player), color: seat === undefined ? null : SEAT_COLORS[seat % SEAT_COLORS.length], words: decorate(lines.map(splendorWords).join('; ')), notation })),
    );
  };

  // ---- The action bar: the prompt, the pick, pass, the result ----

  const renderActions = (v) => {
    const st = v.state;
    const legal = legalOf(v);
    const over = v.status === 'finished' || v.status === 'aborted';
    const name = (seat) => nameOf(v.seats[seat]?.player);
    if (over) return ctx.resultBlock(v, resultText(v));
    if (v.you === null || v.you === undefined) {
      return h('div', { class: 'actions sp-actions', id: 'prompt' }, h('span', { class: 'muted' }, `${t('game.spectating')} · ${st.decider !== null && st.decider !== undefined ? t('game.toPlay', { name: name(st.decider) }) : ''}`));
    }
    if (legal.length === 0) {
      const who = name(st.decider);
      const confirming = st.phase === 'confirm';
      return h('div', { class: 'actions sp-actions', id: 'prompt' }, h('span', { class: 'muted' }, who ? t(confirming ? 'game.waitingConfirm' : 'game.waitingFor', { name: who }) : t('game.waiting')));
    }
    const take = takeFor(legal, pick);
    const parts = [h('strong', { class: 'prompt-text' }, prompt(legal, st.phase))];
    if (st.phase === 'return') {
      const mine = st.hands[v.you].tokens;
      parts.push(
        h(
          'div',
          { class: 'sp-return', id: 'sp-return' },
          h('span', { class: 'small muted' }, t('splendor.youHold', { n: total(mine) })),
          h(
            'div',
            { class: 'chips' },
            TOKENS.filter((g) => returnStep(legal, g)).map((g) => clickable(tokenChip(g, mine[g], { cls: 'legal' }), () => send(returnStep(legal, g)), t('splendor.returnToken', { gem: gemName(g), colour: t(`colour.${g}`), count: mine[g] }))),
          ),
        ),
      );
    } else if (pick.length) {
      parts.push(
        h(
          'div',
          { class: 'sp-pick', id: 'sp-pick' },
          h('span', { class: 'small' }, t('splendor.yourPick')),
          h('span', { class: 'chips' }, pick.map((g, i) => clickable(tokenChip(g, null, { cls: 'picked' }), () => unpick(i), t('splendor.putBack', { gem: gemName(g), colour: t(`colour.${g}`) })))),
          h('button', { class: 'primary', id: 'sp-take', disabled: !take, 'data-step': take ? stepText(take) : '', onclick: () => take && send(take) }, take ? t('splendor.take') : t('splendor.pickMore')),
          h('button', { id: 'sp-clear', onclick: () => { pick = []; ctx.rerender(); } }, t('splendor.clear')),
        ),
      );
    } else if (st.phase === 'action' && legal.some((s) => s.kind === 'take')) {
      parts.push(h('span', { class: 'small muted hint' }, t('splendor.hint')));
    }
    const passes = legal.filter((s) => s.kind === 'pass');
    if (passes.length) parts.push(h('div', { class: 'buttons' }, passes.map((s) => h('button', { class: 'pass', 'data-step': 'pass', onclick: () => send(s) }, t('splendor.pass')))));
    parts.push(ctx.turnButtons?.(v));
    return h('div', { class: 'actions mine sp-actions', id: 'prompt' }, parts);
  };

  const resultText = (v) => {
    const r = v.result;
    if (!r || !r.winners || !r.winners.length) return v.status === 'aborted' ? t('result.aborted') : t('result.over');
    const names = r.winners.map((w) => nameOf(v.seats[w].player));
    const who = list(names);
    if (REASONS.has(r.reason)) return t(`result.santorini.${r.reason}`, { who, count: names.length });
    const pts = num(v.state.hands[r.winners[0]]?.points ?? 0);
    return names.length > 1 ? t('result.splendor.share', { who, pts }) : t('result.splendor.won', { who, pts });
  };

  // ---- The menu of a card or deck ----

  const renderMenu = (v) => {
    if (!menu) return null;
    const st = v.state;
    const legal = legalOf(v);
    let pieceEl;
    let title;
    let options = [];
    if (menu.level) {
      const step = deckStep(legal, menu.level);
      pieceEl = cardBack(menu.level, { count: st.decks[menu.level - 1] });
      title = t('splendor.deckTitle', { level: LEVEL_NUMERALS[menu.level] });
      options.push(
        h(
          'button',
          { class: 'primary', 'data-action': 'reserve', 'data-step': stepText(step), onclick: () => send(step) },
          t('splendor.reserveTop'),
          h('span', { class: 'small sub' }, st.supply.gold > 0 ? t('splendor.takeGold') : t('splendor.noGold')),
        ),
      );
    } else {
      const card = findCard(v, menu.card);
      const { reserve, buys } = cardSteps(legal, menu.card);
      pieceEl = card ? cardFace(card) : null;
      title = card ? t(card.points ? 'splendor.menuCardPoints' : 'splendor.menuCard', { level: LEVEL_NUMERALS[card.level], gem: gemName(card.bonus), points: card.points, count: card.points }) : t('splendor.menuCardNumber', { id: menu.card });
      buys.forEach((b, i) => {
        const paid = TOKENS.filter((g) => b.pay[g] > 0);
        options.push(
          h(
            'button',
            { class: i === 0 ? 'primary' : '', 'data-action': 'buy', 'data-pay-index': i, 'data-step': stepText(b), onclick: () => send(b) },
            buys.length > 1 ? (i === 0 ? t('splendor.buy') : t('splendor.buyPaying')) : t('splendor.buy'),
            h('span', { class: 'pay' }, paid.length ? paid.map((g) => tokenChip(g, b.pay[g], { cls: 'tiny' })) : h('span', { class: 'small sub' }, t('splendor.free'))),
          ),
        );
      });
      if (reserve) {
        options.push(
          h(
            'button',
            { class: buys.length ? '' : 'primary', 'data-action': 'reserve', 'data-step': stepText(reserve), onclick: () => send(reserve) },
            t('splendor.reserve'),
            h('span', { class: 'small sub' }, st.supply.gold > 0 ? t('splendor.takeGold') : t('splendor.noGold')),
          ),
        );
      }
      if (buys.length > 1) options.splice(1, 0, h('span', { class: 'small muted' }, t('splendor.goldWhere')));
    }
    return h(
      'div',
      { class: 'sp-menu-layer' },
      h('div', { class: 'sp-backdrop', onclick: close }),
      h(
        'div',
        { class: 'sp-menu', id: 'sp-menu', role: 'dialog', 'aria-label': title, 'data-card': menu.card ?? '', 'data-level': menu.level ?? '' },
        h('div', { class: 'menu-piece' }, pieceEl),
        h('div', { class: 'menu-body' }, h('strong', {}, title), h('div', { class: 'options' }, options), h('button', { class: 'link cancel', id: 'sp-menu-cancel', onclick: close }, t('common.cancel'))),
      ),
    );
  };

  /** The final round's banner: who reached the points that end the game ("Ann has", "Ann and
   *  Bob have", in the banner's own sentence). */
  const reached = (v, startName) => {
    const who = v.state.hands.map((x, i) => (x.points >= 15 ? nameOf(v.seats[i].player) : null)).filter(Boolean);
    if (!who.length) return t('splendor.finalRoundSomeone', { start: startName });
    return t('splendor.finalRoundWho', { who: list(who), count: who.length, start: startName });
  };

  /** Whether the card or deck of a menu still offers a step. */
  const offers = (legal, target) => {
    if (target.level) return Boolean(deckStep(legal, target.level));
    const c = cardSteps(legal, target.card);
    return Boolean(c.reserve || c.buys.length);
  };

  // Escape closes the menu.
  const onKey = (e) => {
    if (e.key === 'Escape' && menu) close();
  };
  if (!readOnly) window.addEventListener('keydown', onKey);

  /** A card visible to this viewer: face up in a row or among your reserved cards. */
  const findCard = (v, id) => {
    for (const row of v.state.rows) for (const c of row) if (c && c.id === id) return c;
    for (const hand of v.state.hands) for (const r of hand.reserved) if (r.card && r.card.id === id) return r.card;
    return null;
  };

  return {
    prepare(v) {
      view = v;
      if (v !== seenView) {
        const before = new Set();
        if (seenView) for (const row of seenView.state.rows) for (const c of row) if (c) before.add(c.id);
        fresh = new Set();
        if (seenView) for (const row of v.state.rows) for (const c of row) if (c && !before.has(c.id)) fresh.add(c.id);
        for (const n of v.state.nobles) nobles.set(n.id, n);
        seenView = v;
      } else fresh = new Set(); // dealt once: a redraw for a pick or a menu does not deal again
      const legal = legalOf(v);
      // What was half chosen must still lead somewhere in the new view.
      if (pick.length && !takeFor(legal, pick) && addable(legal, pick).size === 0) pick = [];
      if (pick.length && !pick.every((g, i) => addable(legal, pick.slice(0, i)).has(g))) pick = [];
      if (menu && !offers(legal, menu)) menu = null;
      return `${pick.join(',')}|${menu ? JSON.stringify(menu) : ''}`;
    },
    forget() {
      pick = [];
      menu = null;
    },
    main(v) {
      const st = v.state;
      const legal = legalOf(v);
      const over = v.status === 'finished' || v.status === 'aborted';
      const startName = nameOf(v.seats[st.start_player]?.player);
      return h(
        'div',
        { class: `sp-table phase-${st.phase}${legal.length ? ' deciding' : ''}`, id: 'sp-table' },
        // The top of the table: the final round's banner and what the last turn did.
        h(
          'div',
          { class: 'sp-top' },
          st.final_round && !over
            ? h('div', { class: 'sp-banner', id: 'final-round' }, h('strong', {}, t('splendor.finalRound')), ` ${reached(v, startName)}`)
            : null,
          readOnly ? null : renderLast(v),
        ),
        renderNobles(v),
        h('div', { class: 'sp-rows' }, [3, 2, 1].map((level) => renderRow(v, level))),
        renderSupply(v),
        readOnly ? null : renderActions(v),
        readOnly ? null : renderMenu(v),
      );
    },
    side(v) {
      const legal = legalOf(v);
      const act = {
        legalToken: (g) => Boolean(returnStep(legal, g)),
        onToken: (g) => send(returnStep(legal, g)),
        legalReserved: (id) => cardSteps(legal, id).buys.length > 0,
        onReserved: (id) => open({ card: id }),
      };
      return h(
        'div',
        { class: 'players sp-players' },
        seatOrder(v).map((seat) =>
          handPanel(v, seat, {
            clock: ctx.clockFor ? ctx.clockFor(v, seat, v.state.decider === seat && v.status === 'playing') : null,
            act: v.you === seat ? act : null,
            nobleById: (id) => nobles.get(id),
          }),
        ),
      );
    },
    dispose() {
      window.removeEventListener('keydown', onKey);
    },
    turnLabel: (v) => t('splendor.turnLabel', { round: num(Math.floor((v.state.turn || 0) / (v.state.players || v.seats.length)) + 1), turn: num((v.state.turn || 0) + (v.status === 'playing' ? 1 : 0)) }),
    canAbort: (v) => v.history.length === 0,
    /** What line words depend on beyond the line itself: nothing (see santorini/table.js). */
    logKey: () => '',
    /** History line `i` in words (its player is named by the match screen). */
    logWords: (v, i) => logWords(v.history[i]),
    /** The colour a seat's name is written in: its hand's. */
    seatColor: (v, seat) => (v.seats[seat] ? SEAT_COLORS[seat % SEAT_COLORS.length] : null),
  };
}


/** A Splendor position to look at, nothing to click: the table and every hand (the replay). */
export function splendorPosition(v) {
  const table = splendorTable({ play() {}, rerender() {} }, { readOnly: true });
  table.prepare(v);
  return h('div', { class: 'sp-position', 'data-game': 'splendor' }, table.main(v), table.side(v));
}
