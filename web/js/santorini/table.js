// Santorini's table in the match screen: the board with the legal steps to click (or, while
// the status is `draft`, the draft in its place: draft.js), the power cards and the prompt.
// The match screen (screens/game.js) owns the connection, the clocks, the log and
// resign/abort; it asks this table for what only Santorini draws.
import { h } from '../dom.js';
import { playerName, nameOf } from '../bots.js';
import { renderBoard, SIDE_COLORS } from './board.js';
import { powerName, powerText } from '../catalog.js';
import { draftScreen } from './draft.js';
import { stepLabel, stepText, sourceOf, targetOf, prompt, tokenAction, DIRECTIONS, TURN_KINDS } from './steps.js';
import { targetKind } from './pieces.js';
import { boardMarks, lastTurnLines, freshLines } from './last-turn.js';
import { santoriniWords } from './words.js';
import { t, num, list } from '../i18n/index.js';

const BOARD_KINDS = new Set(['place', 'token', 'move', 'build', 'dome', 'force', 'remove', 'capture', 'select']);
const REASONS = new Set(['win', 'resign', 'timeout', 'no_turn']);

/** The powers seat `seat` plays with now: the cards it holds (Circe may hold another's), the
 *  god Chaos acts as, and the Golden Fleece while its workers touch the Ram. */
function powersOf(st, seat) {
  const out = [];
  for (const c of st.cards || []) {
    if (c.holder !== seat || !c.power) continue;
    out.push(c.power);
    if (c.acting_as) out.push(c.acting_as);
  }
  if (st.fleece && st.fleece.power && (st.fleece.holders || []).includes(seat)) out.push(st.fleece.power);
  return out;
}

/** Notes on what a card carries beyond its power, in the card's own terms (`state`: where
 *  the workers it names stand). */
function cardNotes(card, state = {}) {
  const notes = [];
  if (card.charmed !== undefined && card.charmed !== null) {
    const w = (state.workers || []).find((x) => x.id === card.charmed);
    notes.push(t('card.charms', { square: w?.square || '?' }));
  }
  if (card.moved_up) notes.push(t('card.movedUp'));
  if (card.deck_size !== undefined) notes.push(t('card.deck', { n: num(card.deck_size) }));
  if (card.discards && card.discards.length) notes.push(t('card.discards', { powers: card.discards.map(powerName).join(', ') }));
  if (card.extra_turns) notes.push(t('card.extraTurns', { n: num(card.extra_turns) }));
  if (card.stored_builds !== undefined) notes.push(t('card.storedBuilds', { n: num(card.stored_builds) }));
  if (card.bound && card.bound.length) notes.push(t('card.binds', { count: card.bound.length }));
  const arrow = (d) => `${t(`direction.${d}`)} ${DIRECTIONS.find((x) => x.name === d)?.arrow || ''}`;
  if (card.wind !== undefined) notes.push(card.wind ? t('card.wind', { direction: arrow(card.wind) }) : t('card.windUnset'));
  if (card.song !== undefined) notes.push(card.song ? t('card.song', { direction: arrow(card.song) }) : t('card.songUnset'));
  if (card.whirlpools !== undefined) notes.push(t('card.whirlpools', { squares: card.whirlpools.join(' ') || t('card.noneOnBoard'), n: num(card.whirlpools_on_card) }));
  if (card.coins !== undefined) notes.push(t('card.coins', { squares: card.coins.join(' ') || t('card.noneOnBoard'), n: num(card.coins_on_card) }));
  if (card.talus !== undefined) notes.push(card.talus ? t('card.talus', { square: card.talus }) : t('card.talusOnCard'));
  if (card.fate && card.fate.length) notes.push(t('card.fate', { squares: card.fate.join(' ') }));
  if (card.abyss) notes.push(t('card.abyss', { square: card.abyss }));
  if (card.reserve !== undefined) notes.push(t('card.reserve', { count: card.reserve }));
  const shown = new Set([...(card.whirlpools || []), ...(card.coins || []), card.talus, card.abyss]);
  const other = (card.tokens || []).filter((x) => !shown.has(x));
  if (other.length) notes.push(t('card.tokens', { tokens: other.join(' ') }));
  return notes;
}

/** The aim steps as a compass of eight arrows (north, towards rank 5, at the top). */
function compass(aims, send) {
  const at = ['NW', 'N', 'NE', 'W', null, 'E', 'SW', 'S', 'SE'];
  return h(
    'div',
    { class: 'compass', id: 'compass', role: 'group', 'aria-label': t('compass.label') },
    at.map((name) => {
      if (!name) return h('span', { class: 'compass-centre' }, '✦');
      const step = aims.find((st) => st.direction === name);
      const d = DIRECTIONS.find((x) => x.name === name);
      return h(
        'button',
        { class: 'primary', 'data-direction': name, 'data-step': step ? stepText(step) : '', disabled: !step, title: t(`direction.${name}`), 'aria-label': t('step.aim', { direction: t(`direction.${name}`) }), onclick: () => step && send(step) },
        d.arrow,
      );
    }),
  );
}

/** `ctx`: {id, play(step), rerender(), names(view), authors(), resultBlock(view, text), clockFor(view, seat, turn)}. */
export function santoriniTable(ctx) {
  const { play } = ctx;
  let selected = null; // the source square picked first
  let choice = null; // steps that share the clicked squares, offered as buttons
  let view = null;
  let seen = -1; // history lines the board was last drawn with: newer ones are animated

  const onSquare = (square) => {
    const v = view;
    const legal = (v.state.legal || []).filter((st) => BOARD_KINDS.has(st.kind));
    const fromSelected = selected ? legal.filter((st) => sourceOf(st) === selected && targetOf(st)?.toUpperCase() === square) : [];
    const free = legal.filter((st) => !sourceOf(st) && targetOf(st)?.toUpperCase() === square);
    const isSource = legal.some((st) => sourceOf(st) === square);
    choice = null;
    let candidates = [];
    if (fromSelected.length > 0) candidates = [...fromSelected, ...free];
    else if (isSource && selected !== square) {
      selected = square;
      ctx.rerender();
      return;
    } else if (selected === square) {
      selected = null;
      ctx.rerender();
      return;
    } else candidates = free;
    if (candidates.length === 1) send(candidates[0]);
    else if (candidates.length > 1) {
      choice = candidates;
      ctx.rerender();
    }
  };

  const send = (step) => {
    selected = null;
    choice = null;
    play(step);
  };

  const renderCards = (v) => {
    const st = v.state;
    const cards = st.cards || [];
    return h(
      'div',
      { class: 'players' },
      v.seats.map((seat, i) => {
        const card = cards[i];
        const power = seat.power || (card && card.power);
        const turn = st.decider === i && v.status !== 'finished' && v.status !== 'aborted';
        const cls = ['player-card'];
        if (turn) cls.push('turn');
        if (seat.out) cls.push('out');
        if (v.result && v.result.winners.includes(i)) cls.push('winner');
        const notes = [];
        if (card) {
          if (card.holder !== undefined && card.holder !== i) notes.push(t('card.heldBy', { name: nameOf(v.seats[card.holder]?.player) }));
          if (card.acting_as) notes.push(t('card.actingAs', { power: powerName(card.acting_as) }));
          notes.push(...cardNotes(card, st));
        }
        // A hero's once-per-game power: ready, or used (struck through).
        const spent = card && card.spent !== undefined
          ? h('span', { class: `badge hero-power ${card.spent ? 'spent' : 'ready'}`, 'data-spent': card.spent ? 1 : 0, title: card.spent ? t('card.spentTitle') : t('card.readyTitle') }, card.spent ? t('card.spent') : t('card.ready'))
          : null;
        // Gaea's and Jason's workers waiting on the card, drawn as pieces of the side's colour.
        const reserve = card && card.reserve
          ? h('div', { class: 'reserve', 'data-reserve': card.reserve, title: t('card.reserve', { count: card.reserve }) }, Array.from({ length: card.reserve }, () => h('span', { class: 'reserve-worker' })))
          : null;
        return h(
          'div',
          {
            class: cls.join(' '),
            'data-seat': i,
            'data-side': seat.side,
            'data-power': power || '',
            'data-holder': card && card.holder !== undefined ? card.holder : i,
            'data-acting-as': (card && card.acting_as) || '',
            'data-out': seat.out ? 1 : 0,
            style: `--side:${SIDE_COLORS[seat.side % SIDE_COLORS.length]}`,
          },
          h(
            'div',
            { class: 'row' },
            h('span', { class: 'dot' }),
            playerName(seat.player),
            v.you === i ? h('span', { class: 'badge' }, t('game.you')) : null,
            seat.connected === false ? h('span', { class: 'muted small', title: t('game.notConnected') }, `⚠ ${t('game.away')}`) : null,
            ctx.clockFor(v, i, turn),
          ),
          power ? h('div', { class: `power${card && card.spent ? ' spent' : ''}`, title: powerText(power) }, h('strong', {}, powerName(power)), spent, h('div', { class: 'small' }, powerText(power))) : null,
          notes.length ? h('div', { class: 'muted small card-state' }, notes.join(' · ')) : null,
          reserve,
          turn ? h('div', { class: 'small turn-note' }, v.you === i ? t('game.yourTurn') : t('game.thinking')) : null,
        );
      }),
      st.fleece
        ? h(
            'div',
            { class: 'player-card fleece' },
            h('strong', {}, `${t('power.goldenFleece')}: `, st.fleece.power ? powerName(st.fleece.power) : t('fleece.notChosen')),
            st.fleece.power ? h('div', { class: 'small' }, powerText(st.fleece.power)) : null,
            h('div', { class: 'muted small' }, st.fleece.ram ? t('fleece.ram', { square: st.fleece.ram, names: st.fleece.holders.map((s2) => nameOf(v.seats[s2]?.player)).join(', ') || t('fleece.nobody') }) : t('fleece.ramNotPlaced')),
            st.fleece.card && cardNotes(st.fleece.card, st).length ? h('div', { class: 'muted small card-state' }, cardNotes(st.fleece.card, st).join(' · ')) : null,
          )
        : null,
    );
  };

  const renderActions = (v) => {
    const legal = v.state.legal || [];
    const over = v.status === 'finished' || v.status === 'aborted';
    if (over) {
      const r = v.result;
      let text = t('result.aborted');
      if (r && r.winners && r.winners.length) {
        const who = list(r.winners.map((w) => nameOf(v.seats[w].player)));
        text = t(REASONS.has(r.reason) ? `result.santorini.${r.reason}` : 'result.santorini.win', { who, count: r.winners.length });
      }
      return ctx.resultBlock(v, text);
    }
    if (v.you === null || v.you === undefined) {
      return h('div', { class: 'actions' }, h('span', { class: 'muted' }, `${t('game.spectating')} · ${v.state.decider !== null ? t('game.toPlay', { name: nameOf(v.seats[v.state.decider]?.player) }) : ''}`));
    }
    if (legal.length === 0) {
      const who = nameOf(v.seats[v.state.decider]?.player);
      const confirming = v.state.phase === 'confirm';
      return h('div', { class: 'actions', id: 'prompt' }, h('span', { class: 'muted' }, who ? t(confirming ? 'game.waitingConfirm' : 'game.waitingFor', { name: who }) : t('game.waiting')));
    }
    const names = ctx.names(v);
    const powers = powersOf(v.state, v.state.decider);
    const label = (st) => stepLabel(st, names, powers);
    const aims = legal.filter((st) => st.kind === 'aim');
    const buttons = legal.filter((st) => !BOARD_KINDS.has(st.kind) && !TURN_KINDS.has(st.kind) && st.kind !== 'offer' && st.kind !== 'choose' && st.kind !== 'aim');
    const picked = () => t('prompt.selected', { square: selected });
    let text = selected ? `${prompt(legal)}${picked()}` : prompt(legal);
    // Gaea places a worker from her card out of turn, after a dome.
    const outOfTurn = v.state.this_turn && v.state.this_turn.seat !== v.state.decider;
    if (v.status === 'playing' && outOfTurn && legal.some((st) => st.kind === 'place')) text = t('prompt.gaea');
    // Jason places his extra worker on the perimeter instead of his normal turn.
    else if (v.status === 'playing' && legal.some((st) => st.kind === 'place') && legal.some((st) => st.kind === 'move')) {
      text = t('prompt.jason', { prompt: prompt(legal.filter((st) => st.kind !== 'place')) });
      if (selected) text += picked();
    }
    // Adonis' select charms the worker.
    if (powers.includes('Adonis') && legal.some((st) => st.kind === 'select')) text = t(legal.some((st) => st.kind === 'pass') ? 'prompt.adonisOrPass' : 'prompt.adonis');
    const tokens = legal.filter((st) => st.kind === 'token');
    if (tokens.length) text += ` (${[...new Set(tokens.map((st) => tokenAction(st, powers)))].join(', ')})`;
    return h(
      'div',
      { class: 'actions mine', id: 'prompt' },
      h('strong', {}, text),
      choice
        ? h('div', { class: 'choice', id: 'choice' }, h('span', {}, t('prompt.whichOne')), choice.map((st) => h('button', { class: 'primary', 'data-step': stepText(st), onclick: () => send(st) }, label(st))), h('button', { onclick: () => { choice = null; ctx.rerender(); } }, t('common.cancel')))
        : null,
      aims.length ? compass(aims, send) : null,
      buttons.length ? h('div', { class: 'buttons' }, buttons.map((st) => h('button', { class: st.kind === 'pass' ? 'pass' : 'primary', 'data-step': stepText(st), onclick: () => send(st) }, label(st)))) : null,
      ctx.turnButtons?.(v),
      h(
        'details',
        { class: 'all-steps' },
        h('summary', {}, t('prompt.allSteps', { count: legal.length })),
        h('ul', { id: 'legal' }, legal.map((st) => h('li', {}, h('button', { class: 'link', 'data-step': stepText(st), 'data-json': JSON.stringify(st), onclick: () => send(st) }, label(st))))),
      ),
    );
  };

  const draft = draftScreen(ctx, (v) => renderActions(v));
  /** In the draft's last phase the prompt (the start player buttons) is part of the draft. */
  const promptInDraft = (v) => v.status === 'draft' && Boolean(v.state.draft) && v.state.phase === 'start_player';

  return {
    /** Brings the local choices in line with view `v`; returns what they are, as a key. */
    prepare(v) {
      view = v;
      const draftKey = draft.prepare(v);
      const legal = v.state.legal || [];
      const boardSteps = legal.filter((st) => BOARD_KINDS.has(st.kind));
      const sources = new Set(boardSteps.map(sourceOf).filter(Boolean));
      if (selected && !sources.has(selected)) selected = null;
      // One worker to act with: select it for the player.
      if (!selected && sources.size === 1 && boardSteps.every((st) => sourceOf(st))) selected = [...sources][0];
      return `${selected}|${choice ? choice.map(stepText).join(',') : ''}|${draftKey}`;
    },
    /** A step was sent or the view moved on: forget the half-made choice. */
    forget() {
      selected = null;
      choice = null;
    },
    main(v) {
      const drafting = draft.main(v);
      if (drafting) return drafting;
      const legal = v.state.legal || [];
      const boardSteps = legal.filter((st) => BOARD_KINDS.has(st.kind));
      const sources = new Set(boardSteps.map(sourceOf).filter(Boolean));
      const playable = boardSteps.filter((st) => !sourceOf(st) || sourceOf(st) === selected);
      const targets = new Set(playable.map((st) => targetOf(st)?.toUpperCase()).filter(Boolean));
      // Each target's mark says what playing there does (a power's own step looks different).
      const occupied = new Set((v.state.workers || []).map((w) => w.square?.toUpperCase()).filter(Boolean));
      const targetKinds = new Map([...targets].map((sq) => [sq, targetKind(playable.filter((st) => targetOf(st)?.toUpperCase() === sq), (to) => occupied.has(to?.toUpperCase()))]));
      const lastTurn = boardMarks(lastTurnLines(v.history, ctx.authors?.() || []));
      const fresh = boardMarks(freshLines(v.history, seen));
      seen = v.history.length;
      return h('div', { class: 'board-wrap', id: 'board' }, renderBoard(v, { sources, targets, targetKinds, selected, last: lastTurn.squares, lastTurn, fresh }, legal.length ? onSquare : null));
    },
    side(v) {
      return [renderCards(v), promptInDraft(v) ? null : renderActions(v)];
    },
    turnLabel: (v) => t('game.turn', { n: num(v.state.turn || 0) }),
    canAbort: (v) => !v.history.some((t) => t.startsWith('move')),
    /** What line words depend on beyond the line, the seats' names and the language: the
     *  powers `seat` holds now (the log draws a line again when this changes). */
    logKey: (v, seat) => (seat === undefined ? '' : powersOf(v.state, seat).join(',')),
    /** History line `i` in words, played by `seat` (undefined when not known). */
    logWords: (v, i, seat) => santoriniWords(v.history[i], { names: v.seats.map((x) => nameOf(x.player)), powers: seat === undefined ? [] : powersOf(v.state, seat) }),
    /** The colour a seat's name is written in: its side's. */
    seatColor: (v, seat) => (v.seats[seat] ? SIDE_COLORS[v.seats[seat].side % SIDE_COLORS.length] : null),
  };
}
