// A live match, for its players and its spectators: the board with the legal steps to click,
// the draft, the power cards, clocks, the log, resign and abort.
import { app } from '../app.js';
import { h, mount, clockText } from '../dom.js';
import { renderBoard, SIDE_COLORS } from '../board.js';
import { POWERS, powerName, banned } from '../powers.js';
import { stepLabel, stepText, sourceOf, targetOf, prompt, seatLetter } from '../steps.js';

const BOARD_KINDS = new Set(['place', 'token', 'move', 'build', 'dome', 'force', 'remove', 'capture', 'select']);
const REASONS = { win: 'won', resign: 'won by resignation', timeout: 'won on time', no_turn: 'won: the opponent could not move', aborted: '' };

export function gameScreen(screen, id) {
  const conn = app.conn;
  let selected = null; // the source square picked first
  let choice = null; // steps that share the clicked squares, offered as buttons
  let sentAt = null; // the match version a step was sent from, until the view moves on or the answer comes
  let lastHistoryLength = -1;
  const els = {
    board: h('div', { class: 'board-wrap', id: 'board' }),
    side: h('div', { class: 'side' }),
  };
  mount(screen, h('div', { class: 'game', 'data-match': id }, els.board, els.side));
  screen.querySelector('.game').prepend(h('p', { class: 'muted' }, 'Opening the match…'));

  const match = () => conn.match(id);
  const view = () => match()?.view;

  // One step per version: a second click before the first step's patch arrives is ignored.
  // Once the patch is there the next step may go, even if the first one's ack is still on its
  // way (a fast player's next click must not be swallowed).
  const play = async (step) => {
    const version = match()?.version;
    if (sentAt !== null && sentAt === version) return;
    sentAt = version;
    selected = null;
    choice = null;
    try {
      await conn.request({ type: 'match.step', match: id, step });
    } catch (e) {
      app.toast(e.message);
    } finally {
      if (sentAt === version) sentAt = null;
      render();
    }
  };

  const names = (v) => v.seats.map((st) => st.player.name);

  const onSquare = (square) => {
    const v = view();
    const legal = (v.state.legal || []).filter((st) => BOARD_KINDS.has(st.kind));
    const fromSelected = selected ? legal.filter((st) => sourceOf(st) === selected && targetOf(st)?.toUpperCase() === square) : [];
    const free = legal.filter((st) => !sourceOf(st) && targetOf(st)?.toUpperCase() === square);
    const isSource = legal.some((st) => sourceOf(st) === square);
    choice = null;
    let candidates = [];
    if (fromSelected.length > 0) candidates = [...fromSelected, ...free];
    else if (isSource && selected !== square) {
      selected = square;
      render();
      return;
    } else if (selected === square) {
      selected = null;
      render();
      return;
    } else candidates = free;
    if (candidates.length === 1) play(candidates[0]);
    else if (candidates.length > 1) {
      choice = candidates;
      render();
    }
  };

  const renderCards = (v) => {
    const st = v.state;
    const cards = st.cards || [];
    const clock = v.clock || { kind: 'none' };
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
          if (card.moved_up) notes.push('moved up: opponents may not');
          if (card.deck_size !== undefined) notes.push(`deck: ${card.deck_size}`);
          if (card.discards && card.discards.length) notes.push(`discards: ${card.discards.map(powerName).join(', ')}`);
          if (card.extra_turns) notes.push(`extra turns: ${card.extra_turns}`);
          if (card.stored_builds !== undefined) notes.push(`stored builds: ${card.stored_builds}`);
          if (card.bound && card.bound.length) notes.push(`binds ${card.bound.length} worker(s)`);
          if (card.tokens && card.tokens.length) notes.push(`tokens: ${card.tokens.join(' ')}`);
        }
        let clockEl = null;
        if (clock.kind === 'realtime') clockEl = h('span', { class: 'clock', 'data-seat': i }, clockText(clock.remaining_ms[i]));
        else if (clock.kind === 'turn' && turn && clock.deadline_ms) clockEl = h('span', { class: 'clock', 'data-deadline': clock.deadline_ms }, '');
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
            h('a', { href: `#/player/${seat.player.id}`, class: 'name' }, seat.player.name),
            v.you === i ? h('span', { class: 'badge' }, 'you') : null,
            seat.connected === false ? h('span', { class: 'muted small', title: 'not connected' }, '⚠ away') : null,
            clockEl,
          ),
          power ? h('div', { class: 'power', title: POWERS[power]?.text || '' }, h('strong', {}, powerName(power)), h('div', { class: 'small' }, POWERS[power]?.text || '')) : null,
          notes.length ? h('div', { class: 'muted small card-state' }, notes.join(' · ')) : null,
          turn ? h('div', { class: 'small turn-note' }, v.you === i ? 'Your turn' : 'Thinking…') : null,
        );
      }),
      st.fleece
        ? h(
            'div',
            { class: 'player-card fleece' },
            h('strong', {}, 'Golden Fleece: ', st.fleece.power ? powerName(st.fleece.power) : 'not chosen yet'),
            st.fleece.power ? h('div', { class: 'small' }, POWERS[st.fleece.power]?.text || '') : null,
            h('div', { class: 'muted small' }, st.fleece.ram ? `Ram on ${st.fleece.ram}; held this turn by ${st.fleece.holders.map((s2) => v.seats[s2]?.player.name).join(', ') || 'nobody'}` : 'The Ram is not placed yet'),
          )
        : null,
    );
  };

  const renderDraft = (v) => {
    const st = v.state;
    const d = st.draft;
    if (!d || v.status !== 'draft') return null;
    const legal = st.legal || [];
    const byPower = new Map(legal.filter((x) => x.power).map((x) => [x.power, x]));
    const phase = st.phase;
    const shown = phase === 'offer' ? d.pool : d.offer;
    const challenger = v.seats[d.challenger]?.player.name;
    const deciderName = v.seats[st.decider]?.player.name;
    return h(
      'section',
      { class: 'draft', id: 'draft' },
      h('h2', {}, phase === 'offer' ? 'God draft: the offer' : phase === 'choose' ? 'God draft: choose a god' : 'God draft: start player'),
      h(
        'p',
        { class: 'muted small' },
        phase === 'offer'
          ? `${challenger} (the challenger) offers ${st.fleece ? 'one god' : 'one god per player'}; the others then choose in turn and the challenger gets the last.`
          : phase === 'choose'
            ? `${deciderName} chooses; the challenger, ${challenger}, keeps the last god.`
            : `${challenger} names the start player.`,
      ),
      phase === 'offer' && d.offer.length ? h('p', {}, 'Offered so far: ', d.offer.map(powerName).join(', ')) : null,
      h(
        'div',
        { class: 'power-grid' },
        (shown || []).map((key) => {
          const p = POWERS[key] || { name: key, text: '', players: [] };
          const step = byPower.get(key);
          const clash = phase === 'offer' ? d.offer.find((o) => banned(o, key)) : null;
          const offered = phase === 'offer' && d.offer.includes(key);
          const taken = phase !== 'offer' && st.powers.includes(key);
          const disabled = !step;
          return h(
            'button',
            {
              class: `power-card${offered || taken ? ' chosen' : ''}${clash ? ' banned' : ''}`,
              'data-power': key,
              disabled,
              title: clash ? `Banned together with ${powerName(clash)}` : p.text,
              onclick: () => step && play(step),
            },
            h('strong', {}, p.name),
            h('span', { class: 'small' }, p.text),
            h('span', { class: 'muted small' }, `${p.category || ''} · ${p.players.join('/')} players`),
            clash ? h('span', { class: 'small warn' }, `Not with ${powerName(clash)}`) : null,
            offered ? h('span', { class: 'small' }, 'offered') : taken ? h('span', { class: 'small' }, `taken by ${v.seats[st.powers.indexOf(key)]?.player.name}`) : null,
          );
        }),
      ),
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
      return h('div', { class: 'actions over', id: 'result', 'data-reason': (r && r.reason) || 'aborted', 'data-winners': ((r && r.winners) || []).join(',') }, h('strong', {}, text), ' ', h('a', { href: `#/replay/${id}`, id: 'replay-link' }, 'Watch the replay'), ' · ', h('a', { href: '#/' }, 'Home'));
    }
    if (v.you === null || v.you === undefined) {
      return h('div', { class: 'actions' }, h('span', { class: 'muted' }, `Spectating · ${v.state.decider !== null ? `${v.seats[v.state.decider]?.player.name} to play` : ''}`));
    }
    if (legal.length === 0) {
      const who = v.seats[v.state.decider]?.player.name;
      return h('div', { class: 'actions', id: 'prompt' }, h('span', { class: 'muted' }, who ? `Waiting for ${who}…` : 'Waiting…'));
    }
    const buttons = legal.filter((st) => !BOARD_KINDS.has(st.kind) && st.kind !== 'offer' && st.kind !== 'choose');
    const text = selected ? `${prompt(legal)} — worker on ${selected} selected` : prompt(legal);
    return h(
      'div',
      { class: 'actions mine', id: 'prompt' },
      h('strong', {}, text),
      choice
        ? h('div', { class: 'choice', id: 'choice' }, h('span', {}, 'Which one?'), choice.map((st) => h('button', { class: 'primary', 'data-step': stepText(st), onclick: () => play(st) }, stepLabel(st, names(v)))), h('button', { onclick: () => { choice = null; render(); } }, 'Cancel'))
        : null,
      buttons.length ? h('div', { class: 'buttons' }, buttons.map((st) => h('button', { class: st.kind === 'pass' ? 'pass' : 'primary', 'data-step': stepText(st), onclick: () => play(st) }, stepLabel(st, names(v))))) : null,
      h(
        'details',
        { class: 'all-steps' },
        h('summary', {}, `All ${legal.length} legal steps`),
        h('ul', { id: 'legal' }, legal.map((st) => h('li', {}, h('button', { class: 'link', 'data-step': stepText(st), 'data-json': JSON.stringify(st), onclick: () => play(st) }, stepLabel(st, names(v)))))),
      ),
    );
  };

  const renderLog = (v) =>
    h(
      'section',
      { class: 'log' },
      h('h3', {}, `Steps (${v.history.length})`),
      h('ol', { id: 'log' }, v.history.map((t, i) => h('li', { 'data-n': i + 1 }, t))),
    );

  // What the screen last drew: nothing is redrawn while it stays the same. A redraw replaces
  // the board and the buttons, so a needless one (the ack of a step that arrives after its
  // patch) could swallow a click that lands between its mousedown and mouseup.
  let drawn = { view: null, version: null, key: null };

  const render = () => {
    const m = match();
    const v = m?.view;
    if (!v) return;
    const legal = v.state.legal || [];
    const boardSteps = legal.filter((st) => BOARD_KINDS.has(st.kind));
    const sources = new Set(boardSteps.map(sourceOf).filter(Boolean));
    if (selected && !sources.has(selected)) selected = null;
    // One worker to act with: select it for the player.
    if (!selected && sources.size === 1 && boardSteps.every((st) => sourceOf(st))) selected = [...sources][0];
    const key = `${selected}|${choice ? choice.map(stepText).join(',') : ''}`;
    if (drawn.view === v && drawn.version === m.version && drawn.key === key) return;
    drawn = { view: v, version: m.version, key };
    const targets = new Set(
      boardSteps.filter((st) => !sourceOf(st) || sourceOf(st) === selected).map((st) => targetOf(st)?.toUpperCase()).filter(Boolean),
    );
    const last = new Set();
    const lastStep = v.history[v.history.length - 1];
    if (lastStep) for (const w of lastStep.split(' ')) if (/^[A-E][1-5]$/i.test(w)) last.add(w.toUpperCase());
    const marks = { sources, targets, selected, last };
    const gameEl = screen.querySelector('.game');
    gameEl.classList.toggle('my-turn', legal.length > 0);
    gameEl.dataset.status = v.status;
    gameEl.dataset.version = m.version;
    gameEl.dataset.you = v.you === null || v.you === undefined ? '' : v.you;
    gameEl.dataset.turn = v.state.turn || 0;
    gameEl.dataset.phase = v.state.phase || '';
    gameEl.dataset.decider = v.state.decider === null || v.state.decider === undefined ? '' : v.state.decider;
    screen.querySelector('.game > p.muted')?.remove();
    mount(els.board, renderBoard(v, marks, legal.length ? onSquare : null));
    const oldLog = els.side.querySelector('#log');
    const oldScroll = oldLog ? oldLog.scrollTop : 0;
    const wasAtBottom = !oldLog || oldLog.scrollTop + oldLog.clientHeight >= oldLog.scrollHeight - 4;
    const historyChanged = v.history.length !== lastHistoryLength;
    lastHistoryLength = v.history.length;
    const log = renderLog(v);
    const canAbort = v.you !== null && v.you !== undefined && !v.history.some((t) => t.startsWith('move')) && v.status !== 'finished' && v.status !== 'aborted';
    const canResign = v.you !== null && v.you !== undefined && v.status === 'playing' && !v.seats[v.you]?.out;
    mount(
      els.side,
      h(
        'div',
        { class: 'status-line' },
        h('span', {}, `Turn ${v.state.turn || 0}`),
        h('span', { class: 'muted', id: 'spectators', title: 'spectators' }, `watching: ${v.spectators}`),
      ),
      renderCards(v),
      renderActions(v),
      renderDraft(v),
      log,
      h(
        'div',
        { class: 'row end' },
        canAbort ? h('button', { id: 'abort', onclick: () => confirm('Abort this match? Nobody wins.') && conn.request({ type: 'match.abort', match: id }).catch((e) => app.toast(e.message)) }, 'Abort') : null,
        canResign ? h('button', { id: 'resign', class: 'danger', onclick: () => confirm('Resign this game?') && conn.request({ type: 'match.resign', match: id }).catch((e) => app.toast(e.message)) }, 'Resign') : null,
      ),
    );
    // The log follows new steps unless the reader scrolled back through it.
    const ol = log.querySelector('ol');
    ol.scrollTop = historyChanged || wasAtBottom ? ol.scrollHeight : oldScroll;
    tick();
  };

  // Clocks count down locally from the moment the last version arrived.
  const tick = () => {
    const m = match();
    const v = m?.view;
    if (!v || !v.clock) return;
    if (v.clock.kind === 'realtime') {
      for (const el of els.side.querySelectorAll('.clock[data-seat]')) {
        const seat = Number(el.dataset.seat);
        let left = v.clock.remaining_ms[seat];
        const running = v.clock.running === seat && v.status !== 'finished' && v.status !== 'aborted';
        if (running) left -= performance.now() - m.receivedAt;
        el.textContent = clockText(left);
        el.classList.toggle('running', running);
        el.classList.toggle('low', left < 20000);
      }
    } else if (v.clock.kind === 'turn') {
      for (const el of els.side.querySelectorAll('.clock[data-deadline]')) {
        el.textContent = `${clockText(Number(el.dataset.deadline) - Date.now())} left`;
      }
    }
  };
  const timer = setInterval(tick, 250);

  const offs = [
    conn.on('match.snapshot', (msg) => msg.match === id && render()),
    conn.on('match.patch', (msg) => msg.match === id && render()),
    conn.on('error', (msg) => {
      // A finished match leaves the server's memory soon after its last patch: a reconnect that
      // reopens it gets unknown_match, and the final board this screen shows stays.
      const status = view()?.status;
      if (msg.code === 'unknown_match' && (status === 'finished' || status === 'aborted')) return;
      if (msg.code === 'unknown_match') mount(screen, h('div', { class: 'card narrow' }, h('h1', {}, 'No such match'), h('p', {}, 'It may have ended a while ago. '), h('a', { href: `#/replay/${id}` }, 'Try its replay'), ' · ', h('a', { href: '#/' }, 'Home')));
    }),
  ];
  conn.openMatch(id);
  render();
  return () => {
    clearInterval(timer);
    offs.forEach((off) => off());
    conn.closeMatch(id);
  };
}
