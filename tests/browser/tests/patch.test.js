// The client's JSON Patch (RFC 6902), which keeps match views current, on the RFC's own
// examples (appendix A) and on the errors that must leave the view untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch } from '../../../web/js/patch.js';

const cases = [
  ['add an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
  ['add an array element', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
  ['append with -', { h: ['a'] }, [{ op: 'add', path: '/h/-', value: 'b' }], { h: ['a', 'b'] }],
  ['remove an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
  ['remove an array element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
  ['replace a value', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
  ['replace an array element', { b: ['0', '1', '2'] }, [{ op: 'replace', path: '/b/1', value: '2' }], { b: ['0', '2', '2'] }],
  ['move a value', { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }], { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } }],
  ['move an array element', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }],
  ['copy', { a: { x: 1 } }, [{ op: 'copy', from: '/a', path: '/b' }], { a: { x: 1 }, b: { x: 1 } }],
  ['test then add', { baz: 'qux', foo: ['a', 2, 'c'] }, [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }, { op: 'add', path: '/n', value: null }], { baz: 'qux', foo: ['a', 2, 'c'], n: null }],
  ['escaped keys', { 'a/b': 1, 'm~n': 2 }, [{ op: 'replace', path: '/a~1b', value: 3 }, { op: 'remove', path: '/m~0n' }], { 'a/b': 3 }],
  ['replace the whole document', { a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }], { b: 2 }],
  ['the legal list goes away and comes back', { state: { legal: [{ kind: 'pass' }] } }, [{ op: 'remove', path: '/state/legal' }, { op: 'add', path: '/state/legal', value: [{ kind: 'move', from: 'A1', to: 'B2' }] }], { state: { legal: [{ kind: 'move', from: 'A1', to: 'B2' }] } }],
];

for (const [name, doc, ops, want] of cases) {
  test(`patch: ${name}`, () => {
    const before = structuredClone(doc);
    assert.deepEqual(applyPatch(doc, ops), want);
    assert.deepEqual(doc, before, 'the input is not modified');
  });
}

const errors = [
  ['a failed test', { baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]],
  ['a missing parent', { foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]],
  ['an index past the end', { a: [1] }, [{ op: 'add', path: '/a/2', value: 3 }]],
  ['removing a missing member', { a: 1 }, [{ op: 'remove', path: '/b' }]],
  ['replacing a missing member', { a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]],
  ['a leading zero index', { a: [1, 2] }, [{ op: 'remove', path: '/a/01' }]],
  ['an unknown op', { a: 1 }, [{ op: 'frobnicate', path: '/a' }]],
  ['a later op failing after an earlier one applied', { a: 1 }, [{ op: 'replace', path: '/a', value: 2 }, { op: 'remove', path: '/zz' }]],
];

for (const [name, doc, ops] of errors) {
  test(`patch refuses ${name} and changes nothing`, () => {
    const before = structuredClone(doc);
    assert.throws(() => applyPatch(doc, ops));
    assert.deepEqual(doc, before);
  });
}
