// The log people read (web/js/santorini/words.js, web/js/splendor/words.js, web/js/log-lines.js)
// without a browser: every step kind of both games, from the examples of
// protocol/schema/step.json written as the history writes them, plus the history-only forms
// (a hidden worker's step, each power's token, aims and charms, Splendor's full card lines),
// reads as a player's name and words, never as the raw notation.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { santoriniWords } from '../../../web/js/santorini/words.js';
import { stepText as santoriniText } from '../../../web/js/santorini/steps.js';
import { splendorWords } from '../../../web/js/splendor/words.js';
import { stepText as splendorText } from '../../../web/js/splendor/steps.js';
import { lineText } from '../../../web/js/log-lines.js';

const schema = JSON.parse(readFileSync(new URL('../../../protocol/schema/step.json', import.meta.url), 'utf8'));
const SPLENDOR_ONLY = new Set(['take', 'reserve', 'buy', 'return', 'noble']);
const SHARED = new Set(['pass', 'undo', 'end_turn']);
const NAMES = ['Ann', 'Bob'];

/** The verbs a line may start with: a line in words says what the player did. */
const VERBS = new Set(['placed', 'moved', 'built', 'forced', 'removed', 'captured', 'passed', 'offered', 'chose', 'named', 'aimed', 'charmed', 'selected', 'took', 'ended', 'reserved', 'bought', 'returned']);

/** Fails unless `words` (for history line `notation`) reads as words about the player. */
function checkWords(notation, words) {
  const line = lineText({ name: 'Ann', words });
  assert.ok(line.startsWith('Ann '), `"${line}" names its player`);
  assert.notEqual(words, notation, `"${notation}" is put in words`);
  assert.notEqual(line, `Ann ${notation}`);
  assert.ok(VERBS.has(words.split(' ')[0]), `"${words}" (from "${notation}") starts with what the player did`);
  assert.doesNotMatch(words, /undefined|NaN|null|\[object/, `"${words}" from "${notation}"`);
}

const examples = schema.oneOf.flatMap((o) => o.examples.map((ex) => ({ kind: o.properties.kind.const, step: ex })));

test('every step kind of the schema has an example', () => {
  const kinds = new Set(examples.map((e) => e.kind));
  for (const k of [...SPLENDOR_ONLY, ...SHARED, 'place', 'move', 'build', 'dome', 'force', 'remove', 'capture', 'offer', 'choose', 'start_player', 'token', 'aim', 'select']) assert.ok(kinds.has(k), k);
});

test('Santorini: every step kind reads as words', () => {
  for (const { kind, step } of examples.filter((e) => !SPLENDOR_ONLY.has(e.kind))) {
    const notation = santoriniText(step);
    const words = santoriniWords(notation, { names: NAMES, powers: [] });
    checkWords(notation, words);
    if (step.to && kind !== 'token') assert.match(words, new RegExp(step.to), `"${words}" names the square`);
  }
  assert.equal(santoriniWords('move D4 E4'), 'moved from D4 to E4');
  assert.equal(santoriniWords('build E3 E3'), 'built on E3 under their own worker');
  assert.equal(santoriniWords('dome B2 C2'), 'placed a dome on C2');
  assert.equal(santoriniWords('start B', { names: NAMES }), 'named Bob the start player');
});

test('Santorini: the history-only forms and each power\'s special steps read as words', () => {
  const lines = [
    ['move', []], ['place', []], ['force', []], ['token', ['Moerae']], ['build C4', []], ['dome C4', []],
    ['place C3 female', ['Selene']], ['build C3 D4 first', ['Prometheus']], ['dome C3 D4 first', ['Prometheus']],
    ['token C3', []], ['token C3 1', ['Charybdis']], ['token C3 1', ['Clio']], ['token C3 1', ['EuropaTalus']], ['token A1 1', ['Moerae']], ['token C3 1', ['Tartarus']],
    ['aim NE', ['Aeolus']], ['aim S', ['Siren']], ['select C3', ['Adonis']], ['force C3 A1', ['Siren']], ['capture C3 D4', ['Medusa']], ['remove A1 B2', ['Ares']],
  ];
  for (const [line, powers] of lines) checkWords(line, santoriniWords(line, { names: NAMES, powers }));
  assert.equal(santoriniWords('token C3 1', { powers: ['Charybdis'] }), 'placed a Whirlpool on C3');
  assert.equal(santoriniWords('token C3', { powers: [] }), 'placed the Ram on C3');
  assert.equal(santoriniWords('aim NE', { powers: ['Aeolus'] }), 'aimed the Wind NE ↗');
  assert.equal(santoriniWords('select C3', { powers: ['Adonis'] }), 'charmed the worker on C3');
});

test('Splendor: every step kind reads as words, from the client\'s text and the server\'s', () => {
  for (const { step } of examples.filter((e) => SPLENDOR_ONLY.has(e.kind) || SHARED.has(e.kind))) {
    const notation = splendorText(step);
    checkWords(notation, splendorWords(notation));
  }
  const server = [
    'take white blue green', 'take red red', 'reserve #12 (level 1 white, 0 points)', 'reserve #47 (level 2 red, 2 points) from the level 2 deck',
    'reserve from the level 2 deck', 'buy #12 (level 1 white, 0 points) for blue 2 gold 1', 'buy #12 (level 1 white, 1 point) for nothing',
    'buy #35 (level 2 red, 2 points) for blue 3 gold 2; noble #3 visits', 'return red', 'return gold', 'noble #3', 'pass', 'undo', 'end turn',
  ];
  for (const line of server) checkWords(line, splendorWords(line));
  assert.equal(splendorWords('take red red'), 'took 2 ruby');
  assert.equal(splendorWords('buy #35 (level 2 red, 2 points) for blue 3 gold 2; noble #3 visits'), 'bought a level 2 ruby card (#35, 2 points) for 3 sapphire and 2 gold; noble #3 visited');
});
