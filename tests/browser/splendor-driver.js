// Plays Splendor in the browser client by clicking, for tests/splendor.test.js. The driver
// reads the deciding page's view (the app's copy of what the server sent) to choose a step
// among `legal`, then plays it only through the table: gems in the supply then Take, a card or
// deck then its menu, a token in your hand, a noble, Pass. Every target is clicked through a
// selector that requires the table to highlight it as legal, and the log's new line must be
// the step meant. The strategy buys whenever it can (the most points first) and otherwise takes
// the gems its nearest card lacks, so that games end in a reasonable number of steps.

/** What a page shows of its match: the view, its version, its log length. */
export function tableOf(page) {
  return page.evaluate(() => {
    const game = document.querySelector('.game');
    if (!game) return null;
    const m = window.santoriniTest.conn.match(game.dataset.match);
    return { match: game.dataset.match, version: m?.version, view: m?.view, log: document.querySelectorAll('#log li').length };
  });
}

const COLOURS = ['white', 'blue', 'green', 'red', 'black'];
const TOKENS = [...COLOURS, 'gold'];
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);

/** What `hand` still lacks for `card` after bonuses and tokens (gold counted against the rest). */
function lacking(card, hand) {
  const need = {};
  for (const c of COLOURS) need[c] = Math.max(0, card.cost[c] - hand.bonuses[c] - hand.tokens[c]);
  return need;
}

/** A step of `legal` for the view's deciding seat (see the file's comment). `turnCount`
 *  varies the way to pay: sometimes the last of several is chosen instead of the first. */
export function chooseStep(view, { turnCount = 0 } = {}) {
  const st = view.state;
  // Undo and End turn are the undo test's to play; a game played to its end never takes back.
  const legal = (st.legal || []).filter((s) => s.kind !== 'undo');
  const hand = st.hands[view.you];
  const endTurn = legal.find((s) => s.kind === 'end_turn');
  if (endTurn) return endTurn;
  if (legal.length === 1) return legal[0];
  if (st.phase === 'return') {
    // Give back what there is most of, gold last.
    const returns = legal.filter((s) => s.kind === 'return');
    const colours = returns.filter((s) => s.gem !== 'gold');
    return (colours.length ? colours : returns).reduce((a, b) => (hand.tokens[b.gem] > hand.tokens[a.gem] ? b : a));
  }
  if (st.phase === 'noble') return legal[0];
  const visible = [...st.rows.flat().filter(Boolean), ...hand.reserved.map((r) => r.card).filter(Boolean)];
  const card = (id) => visible.find((c) => c.id === id);
  const buys = legal.filter((s) => s.kind === 'buy');
  if (buys.length) {
    const score = (s) => card(s.card).points * 10 + card(s.card).level;
    const best = Math.max(...buys.map(score));
    const id = buys.find((s) => score(s) === best).card;
    const ways = buys.filter((s) => s.card === id);
    return turnCount % 3 === 2 ? ways[ways.length - 1] : ways[0];
  }
  const takes = legal.filter((s) => s.kind === 'take');
  if (takes.length) {
    // The card nearest to affordable (by points and what it lacks) is the target.
    const targets = visible
      .map((c) => ({ c, need: lacking(c, hand) }))
      .map((x) => ({ ...x, score: x.c.points * 1.5 - Math.max(0, sum(x.need) - hand.tokens.gold) }))
      .sort((a, b) => b.score - a.score);
    const held = sum(hand.tokens);
    const value = (t) => {
      let v = 0;
      const counts = {};
      for (const g of t.gems) counts[g] = (counts[g] || 0) + 1;
      targets.slice(0, 3).forEach((x, rank) => {
        for (const [g, n] of Object.entries(counts)) v += Math.min(n, x.need[g]) * (rank === 0 ? 3 : 1);
      });
      v += t.gems.length * 0.1;
      if (held + t.gems.length > 10) v -= (held + t.gems.length - 10) * 2;
      return v;
    };
    const best = takes.reduce((a, b) => (value(b) > value(a) ? b : a));
    // With nothing worth taking and room to reserve, reserve the best card in view.
    if (value(best) <= 0.3) {
      const reserve = reserveStep(legal, st);
      if (reserve) return reserve;
    }
    return best;
  }
  return reserveStep(legal, st) || legal[0];
}

function reserveStep(legal, st) {
  const reserves = legal.filter((s) => s.kind === 'reserve');
  if (!reserves.length) return null;
  const faceUp = reserves.filter((s) => s.card !== undefined);
  const points = (s) => st.rows.flat().find((c) => c && c.id === s.card)?.points ?? -1;
  if (faceUp.length) return faceUp.reduce((a, b) => (points(b) > points(a) ? b : a));
  return reserves[0];
}

/** The history line a step must leave in its player's log: docs/protocol.md's texts, and
 *  "; noble #N visits" after the step that ended a turn when one came by itself. */
export function expectedLine(step) {
  const counts = (pay) => TOKENS.filter((g) => pay[g] > 0).map((g) => `${g} ${pay[g]}`).join(' ');
  const card = '\\(level \\d [a-z]+, \\d+ points?\\)';
  let core;
  switch (step.kind) {
    case 'take':
      core = `take ${step.gems.join(' ')}`;
      break;
    case 'reserve':
      core = step.card !== undefined ? `reserve #${step.card} ${card}` : `reserve #\\d+ \\(level ${step.level} [a-z]+, \\d+ points?\\) from the level ${step.level} deck`;
      break;
    case 'buy': {
      const paid = counts(step.pay);
      core = `buy #${step.card} ${card}${paid ? ` for ${paid}` : '[^;]*'}`;
      break;
    }
    case 'return':
      core = `return ${step.gem}`;
      break;
    case 'noble':
      core = `noble #${step.noble}`;
      break;
    case 'end_turn':
      core = 'end turn';
      break;
    default:
      core = step.kind;
  }
  return new RegExp(`^${core}(; noble #\\d+ visits)?$`);
}

/** Plays `step` on `page` (whose view is `view`) by clicking the table. */
export async function clickStep(page, step, view) {
  const me = view.you;
  switch (step.kind) {
    case 'take': {
      for (const g of step.gems) await page.click(`#sp-supply .sp-token.legal[data-gem="${g}"]`);
      await page.click(`#sp-take[data-step="take ${step.gems.join(' ')}"]:not([disabled])`);
      return;
    }
    case 'reserve':
      if (step.card !== undefined) await page.click(`.sp-row .sp-card.legal[data-card="${step.card}"]`);
      else await page.click(`.sp-row .sp-back.deck.legal[data-deck="${step.level}"]`);
      await page.click('#sp-menu button[data-action="reserve"]');
      return;
    case 'buy': {
      const reserved = view.state.hands[me].reserved.some((r) => r.card && r.card.id === step.card);
      await page.click(reserved ? `.sp-hand[data-seat="${me}"] .sp-reserved[data-card="${step.card}"] .sp-card.legal` : `.sp-row .sp-card.legal[data-card="${step.card}"]`);
      const ways = view.state.legal.filter((s) => s.kind === 'buy' && s.card === step.card);
      const index = ways.indexOf(step);
      await page.click(`#sp-menu button[data-action="buy"][data-pay-index="${index}"]`);
      return;
    }
    case 'return':
      await page.click(`.sp-hand[data-seat="${me}"] .sp-token.legal[data-gem="${step.gem}"]`);
      return;
    case 'noble':
      await page.click(`#sp-nobles .sp-noble.legal[data-noble="${step.noble}"]`);
      return;
    case 'pass':
      await page.click('#prompt button[data-step="pass"]');
      return;
    case 'undo':
      await page.click('#undo:not([disabled])');
      return;
    case 'end_turn':
      await page.click('#end-turn');
      return;
    default:
      throw new Error(`no way to click ${JSON.stringify(step)}`);
  }
}

/** Plays the match to its end on `players` (pages), each step seen by every page of
 *  `watchers` too. `force(view, n)` may return the step to play instead of the strategy's;
 *  `onStep({n, page, step, view, line})` runs after each step. Returns the steps played. */
export async function playToEnd(players, { watchers = [], force = null, onStep = null, maxSteps = 800, timeoutMs = 600000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  const turns = new Map(); // page -> actions chosen
  let n = 0;
  let retries = 0; // clicks retried because the view moved on under them
  for (;;) {
    if (Date.now() > deadline) throw new Error(`the game took too long (${n} steps)`);
    if (n >= maxSteps) throw new Error(`no result after ${maxSteps} steps`);
    let acted = false;
    for (const page of players) {
      const t = await tableOf(page);
      if (!t?.view) continue;
      if (t.view.status === 'finished' || t.view.status === 'aborted') return n;
      const legal = t.view.state.legal || [];
      if (!legal.length) continue;
      const count = turns.get(page) || 0;
      const step = (force && force(t.view, n)) || chooseStep(t.view, { turnCount: count });
      if (t.view.state.phase === 'action') turns.set(page, count + 1);
      const before = t.log;
      try {
        await clickStep(page, step, t.view);
      } catch (e) {
        // The view may have moved on under the click (a resignation, a clock, someone's
        // connection coming or going): clear what was half chosen and look again.
        const now = await tableOf(page);
        if (now?.version !== t.version && retries < 3) {
          retries += 1;
          for (const sel of ['#sp-menu-cancel', '#sp-clear']) if (await page.$(sel)) await page.click(sel);
          acted = true;
          continue;
        }
        const dom = await page.evaluate(() => ({
          you: document.querySelector('.game')?.dataset.you,
          version: document.querySelector('.game')?.dataset.version,
          rows: [...document.querySelectorAll('.sp-row .sp-card')].map((c) => `${c.dataset.card}${c.classList.contains('legal') ? '*' : ''}`).join(' '),
          prompt: document.querySelector('#prompt')?.textContent,
          menu: Boolean(document.querySelector('#sp-menu')),
        }));
        throw new Error(`${e.message}\nstep ${JSON.stringify(step)} at version ${t.version}; the page shows ${JSON.stringify(dom)}`);
      }
      await page.waitForFunction((k) => document.querySelectorAll('#log li').length > k, before);
      const line = await page.getAttribute(`#log li[data-n="${before + 1}"]`, 'data-notation');
      if (!expectedLine(step).test(line)) throw new Error(`step ${JSON.stringify(step)} left the line "${line}"`);
      for (const w of [...players, ...watchers]) await w.waitForFunction((k) => document.querySelectorAll('#log li').length > k, before);
      n += 1;
      acted = true;
      if (onStep) await onStep({ n, page, step, view: t.view, line, number: before + 1 });
    }
    if (!acted) await new Promise((r) => setTimeout(r, 30));
  }
}
