// Splendor views for the table's page tests, built from the engine's card and noble data
// (engine/splendor/data/*.csv: a card's id is its row, a noble's likewise) in the shapes of
// docs/protocol.md "Splendor". The legal lists are written by hand: the tests check that the
// client shows and sends back exactly what it is given, not the rules.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './harness.js';

export const COLOURS = ['white', 'blue', 'green', 'red', 'black'];
export const TOKENS = [...COLOURS, 'gold'];

function csv(name) {
  const [head, ...rows] = readFileSync(path.join(repoRoot, 'engine', 'splendor', 'data', name), 'utf8').trim().split('\n');
  const keys = head.split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [keys[i], v])));
}

export const CARDS = csv('cards.csv').map((r, id) => ({
  id,
  level: Number(r.level),
  bonus: r.bonus,
  points: Number(r.points),
  cost: Object.fromEntries(COLOURS.map((c) => [c, Number(r[c])])),
}));
export const NOBLES = csv('nobles.csv').map((r, id) => ({ id, points: Number(r.points), requires: Object.fromEntries(COLOURS.map((c) => [c, Number(r[c])])) }));

export const tokens = (o = {}) => Object.fromEntries(TOKENS.map((g) => [g, o[g] || 0]));
export const colours = (o = {}) => Object.fromEntries(COLOURS.map((g) => [g, o[g] || 0]));
const card = (id) => structuredClone(CARDS[id]);

/** Every take of three different colours among `available`, then the doubles of `doubles`. */
export function takeSteps(available, doubles = []) {
  const out = [];
  const a = COLOURS.filter((c) => available.includes(c));
  for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) for (let k = j + 1; k < a.length; k++) out.push({ kind: 'take', gems: [a[i], a[j], a[k]] });
  for (const d of doubles) out.push({ kind: 'take', gems: [d, d] });
  return out;
}

const seat = (i, name, extra = {}) => ({ seat: i, player: { id: `p_fix${i}`, name }, out: false, points: 0, connected: true, ...extra });

/** A two-player game in its ninth turn, seen by `you` (0, 1 or null for a spectator). Seat 0
 *  decides; it holds a card it reserved blind (#47), seat 1 a blind one (#52) and a face-up one. */
export function midGame(you = 0) {
  const rows = [
    [card(3), card(12), card(25), card(38)],
    [card(41), card(47 + 3), card(60), card(66)],
    [card(70), card(77), card(83), card(89)],
  ];
  const hands = [
    {
      tokens: tokens({ white: 1, blue: 2, green: 1, black: 1, gold: 1 }),
      bonuses: colours({ white: 1, blue: 1, green: 1 }),
      points: 1,
      cards: 3,
      reserved: [{ card: you === 0 ? card(47) : null, level: 2, blind: true }],
      nobles: [],
      out: false,
    },
    {
      tokens: tokens({ red: 2, black: 2 }),
      bonuses: colours({ red: 2, black: 1 }),
      points: 2,
      cards: 3,
      reserved: [
        { card: you === 1 ? card(52) : null, level: 2, blind: true },
        { card: card(9), level: 1, blind: false },
      ],
      nobles: [],
      out: false,
    },
  ];
  const state = {
    phase: 'action',
    decider: 0,
    turn: 8,
    players: 2,
    start_player: 1,
    final_round: false,
    supply: tokens({ white: 3, blue: 4, green: 2, red: 4, black: 1, gold: 3 }),
    decks: [32, 24, 16],
    rows,
    nobles: [NOBLES[0], NOBLES[5], NOBLES[9]].map((n) => structuredClone(n)),
    hands,
    winners: [],
  };
  if (you === 0) {
    state.legal = [
      ...takeSteps(COLOURS, ['blue', 'red']),
      ...rows.flat().map((c) => ({ kind: 'reserve', card: c.id })),
      { kind: 'reserve', level: 1 },
      { kind: 'reserve', level: 2 },
      { kind: 'reserve', level: 3 },
      { kind: 'buy', card: 3, pay: tokens({ blue: 1, black: 1 }) },
      { kind: 'buy', card: 12, pay: tokens({ blue: 2, green: 1 }) },
      { kind: 'buy', card: 12, pay: tokens({ blue: 2, gold: 1 }) },
      { kind: 'buy', card: 12, pay: tokens({ blue: 1, green: 1, gold: 1 }) },
      { kind: 'buy', card: 47, pay: tokens({ white: 1, blue: 1, gold: 1 }) },
    ];
  }
  return {
    match: 'm_fixture',
    game: 'splendor',
    status: 'playing',
    seats: [seat(0, 'Ada', { points: 1 }), seat(1, 'Bo', { points: 2 })],
    you,
    spectators: 1,
    clock: { kind: 'realtime', remaining_ms: [412000, 388000], running: 0 },
    result: null,
    history: ['take white blue green', 'take red red', 'reserve from the level 2 deck', 'reserve #9 (level 1 red, 0 points)', 'buy #1 (level 1 white, 0 points) for blue 2 black 1', 'take red black white', 'take blue green black', 'buy #28 (level 1 red, 1 points) for white 1 green 1 red 2'],
    state,
  };
}
