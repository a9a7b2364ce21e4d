// Santorini's table in the match screen: the board with the legal steps to click (or, while
// the status is `draft`, the draft in its place: draft.js), the power cards and the prompt.
// The match screen (screens/game.js) owns the connection, the clocks, the log and
// resign/abort; it asks this table for what only Santorini draws.
import { h } from '../dom.js';
import { playerName } from '../bots.js';
import { renderBoard, SIDE_COLORS } from './board.js';
import { powerName, powerText } from '../catalog.js';
import { draftScreen } from './draft.js';
import { stepLabel, stepText, sourceOf, targetOf, prompt, DIRECTIONS, TURN_KINDS } from './steps.js';
import { targetKind } from './pieces.js';
import { boardMarks, lastTurnLines, freshLines } from './last-turn.js';
import { santoriniWords } from './words.js';

const BOARD_KINDS = new Set(['place', 'token', 'move', 'build', 'dome', 'force', 'remove', 'capture', 'select']);
const REASONS = { win: 'won', resign: 'won by resignation', timeout: 'won on time', no_turn: 'won: the opponent could not move', aborted: '' };

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
    notes.push(`charms the worker on ${w?.square || '?'}: it must end its next turn next to Adonis`);
  }
  if (card.moved_up) notes.push('moved up: opponents may not');
  if (card.deck_size !== undefined) notes.push(`deck: ${card.deck_size}`);
  if (card.discards && card.discards.length) notes.push(`discards: ${card.discards.map(powerName).join(', ')}`);
  if (card.extra_turns) notes.push(`extra turns: ${card.extra_turns}`);
  if (card.stored_builds !== undefined) notes.push(`stored builds: ${card.stored_builds}`);
  if (card.bound && card.bound.length) notes.push(`binds ${card.bound.length} worker(s)`);
  const arrow = (d) => `${d} ${DIRECTIONS.find((x) => x.name === d)?.arrow || ''}`;
  if (card.wind !== undefined) notes.push(card.wind ? `the Wind blows ${arrow(card.wind)}` : 'the Wind is not set');
  if (card.song !== undefined) notes.push(card.song ? `the Song pulls ${arrow(card.song)}` : 'the Song is not set');
  if (card.whirlpools !== undefined) notes.push(`whirlpools: ${card.whirlpools.join(' ') || 'none on the board'}; ${card.whirlpools_on_card} on the card`);
  if (card.coins !== undefined) notes.push(`coins: ${card.coins.join(' ') || 'none on the board'}; ${card.coins_on_card} on the card`);
  if (card.talus !== undefined) notes.push(card.talus ? `Talus on ${card.talus}` : 'Talus on the card');
  if (card.fate && card.fate.length) notes.push(`the Fate: ${card.fate.join(' ')}`);
  if (card.abyss) notes.push(`the Abyss: ${card.abyss}`);
  if (card.reserve !== undefined) notes.push(`${card.reserve} worker(s) on the card`);
  const shown = new Set([...(card.whirlpools || []), ...(card.coins || []), card.talus, card.abyss]);
  const other = (card.tokens || []).filter((t) => !shown.has(t));
  if (other.length) notes.push(`tokens: ${other.join(' ')}`);
  return notes;
}

/** The aim steps as a compass of eight arrows (north, towards rank 5, at the top). */
function compass(aims, send) {
  const at = ['NW', 'N', 'NE', 'W', null, 'E', 'SW', 'S', 'SE'];
  return h(
    'div',
    { class: 'compass', id: 'compass', role: 'group', 'aria-label': 'Choose a direction' },
    at.map((name) => {
      if (!name) return h('span', { class: 'compass-centre' }, '✦');
      const step = aims.find((st) => st.direction === name);
      const d = DIRECTIONS.find((x) => x.name === name);
      return h(
        'button',
        { class: 'primary', 'data-direction': name, 'data-step': step ? stepText(step) : '', disabled: !step, title: name, 'aria-label': `Aim ${name}`, onclick: () => step && send(step) },
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
          if (card.holder !== undefined && card.holder !== i) notes.push(`held by ${v.seats[card.holder]?.player.name}`);
          if (card.acting_as) notes.push(`acting as ${powerName(card.acting_as)}`);
          notes.push(...cardNotes(card, st));
        }
        // A hero's once-per-game power: ready, or used (struck through).
        const spent = card && card.spent !== undefined
          ? h('span', { class: `badge hero-power ${card.spent ? 'spent' : 'ready'}`, 'data-spent': card.spent ? 1 : 0, title: card.spent ? 'The hero has used the power (once per game)' : 'The hero may still use the power once' }, card.spent ? 'power used' : 'power ready')
          : null;
        // Gaea's and Jason's workers waiting on the card, drawn as pieces of the side's colour.
        const reserve = card && card.reserve
          ? h('div', { class: 'reserve', 'data-reserve': card.reserve, title: `${card.reserve} worker(s) on the card` }, Array.from({ length: card.reserve }, () => h('span', { class: 'reserve-worker' })))
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
            v.you === i ? h('span', { class: 'badge' }, 'you') : null,
            seat.connected === false ? h('span', { class: 'muted small', title: 'not connected' }, '⚠ away') : null,
            ctx.clockFor(v, i, turn),
          ),
          power ? h('div', { class: `power${card && card.spent ? ' spent' : ''}`, title: powerText(power) }, h('strong', {}, powerName(power)), spent, h('div', { class: 'small' }, powerText(power))) : null,
          notes.length ? h('div', { class: 'muted small card-state' }, notes.join(' · ')) : null,
          reserve,
          turn ? h('div', { class: 'small turn-note' }, v.you === i ? 'Your turn' : 'Thinking…') : null,
        );
      }),
      st.fleece
        ? h(
            'div',
            { class: 'player-card fleece' },
            h('strong', {}, 'Golden Fleece: ', st.fleece.power ? powerName(st.fleece.power) : 'not chosen yet'),
            st.fleece.power ? h('div', { class: 'small' }, powerText(st.fleece.power)) : null,
            h('div', { class: 'muted small' }, st.fleece.ram ? `Ram on ${st.fleece.ram}; held this turn by ${st.fleece.holders.map((s2) => v.seats[s2]?.player.name).join(', ') || 'nobody'}` : 'The Ram is not placed yet'),
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
      let text = 'The match was aborted.';
      if (r && r.winners && r.winners.length) {
        const who = r.winners.map((w) => v.seats[w].player.name).join(' and ');
        text = `${who} ${REASONS[r.reason] || 'won'}.`;
      }
      return ctx.resultBlock(v, text);
    }
    if (v.you === null || v.you === undefined) {
      return h('div', { class: 'actions' }, h('span', { class: 'muted' }, `Spectating · ${v.state.decider !== null ? `${v.seats[v.state.decider]?.player.name} to play` : ''}`));
    }
    if (legal.length === 0) {
      const who = v.seats[v.state.decider]?.player.name;
      const confirming = v.state.phase === 'confirm' ? ' to confirm the turn' : '';
      return h('div', { class: 'actions', id: 'prompt' }, h('span', { class: 'muted' }, who ? `Waiting for ${who}${confirming}…` : 'Waiting…'));
    }
    const names = ctx.names(v);
    const powers = powersOf(v.state, v.state.decider);
    const label = (st) => stepLabel(st, names, powers);
    const aims = legal.filter((st) => st.kind === 'aim');
    const buttons = legal.filter((st) => !BOARD_KINDS.has(st.kind) && !TURN_KINDS.has(st.kind) && st.kind !== 'offer' && st.kind !== 'choose' && st.kind !== 'aim');
    let text = selected ? `${prompt(legal)} — worker on ${selected} selected` : prompt(legal);
    // Gaea places a worker from her card out of turn, after a dome.
    const outOfTurn = v.state.this_turn && v.state.this_turn.seat !== v.state.decider;
    if (v.status === 'playing' && outOfTurn && legal.some((st) => st.kind === 'place')) text = 'Place a worker from your card next to the dome, or pass';
    // Jason places his extra worker on the perimeter instead of his normal turn.
    else if (v.status === 'playing' && legal.some((st) => st.kind === 'place') && legal.some((st) => st.kind === 'move')) {
      text = `${prompt(legal.filter((st) => st.kind !== 'place'))}, or place the worker from your card instead`;
      if (selected) text += ` — worker on ${selected} selected`;
    }
    // Adonis' select charms the worker.
    if (powers.includes('Adonis') && legal.some((st) => st.kind === 'select')) text = `Charm an opponent's worker: it must end its next turn next to one of yours${legal.some((st) => st.kind === 'pass') ? ', or pass' : ''}`;
    const tokens = legal.filter((st) => st.kind === 'token');
    if (tokens.length) text += ` (${[...new Set(tokens.map((st) => label(st).replace(/ (on|from|to) [A-E][1-5].*$/, '')))].join(', ')})`;
    return h(
      'div',
      { class: 'actions mine', id: 'prompt' },
      h('strong', {}, text),
      choice
        ? h('div', { class: 'choice', id: 'choice' }, h('span', {}, 'Which one?'), choice.map((st) => h('button', { class: 'primary', 'data-step': stepText(st), onclick: () => send(st) }, label(st))), h('button', { onclick: () => { choice = null; ctx.rerender(); } }, 'Cancel'))
        : null,
      aims.length ? compass(aims, send) : null,
      buttons.length ? h('div', { class: 'buttons' }, buttons.map((st) => h('button', { class: st.kind === 'pass' ? 'pass' : 'primary', 'data-step': stepText(st), onclick: () => send(st) }, label(st)))) : null,
      ctx.turnButtons?.(v),
      h(
        'details',
        { class: 'all-steps' },
        h('summary', {}, `All ${legal.length} legal steps`),
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
    turnLabel: (v) => `Turn ${v.state.turn || 0}`,
    canAbort: (v) => !v.history.some((t) => t.startsWith('move')),
    /** History line `i` in words, played by `seat` (undefined when not known). */
    logWords: (v, i, seat) => santoriniWords(v.history[i], { names: v.seats.map((x) => x.player.name), powers: seat === undefined ? [] : powersOf(v.state, seat) }),
    /** The colour a seat's name is written in: its side's. */
    seatColor: (v, seat) => (v.seats[seat] ? SIDE_COLORS[v.seats[seat].side % SIDE_COLORS.length] : null),
  };
}
