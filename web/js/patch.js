// JSON Patch (RFC 6902) for the match views the server sends as diffs.

/** Applies `ops` to a deep copy of `doc` and returns the result; throws on a bad operation
 *  (the caller then asks for a snapshot), leaving `doc` untouched. */
export function applyPatch(doc, ops) {
  let root = structuredClone(doc);
  for (const op of ops) root = applyOne(root, op);
  return root;
}

function parsePointer(path) {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`bad pointer ${path}`);
  return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function getAt(root, tokens) {
  let node = root;
  for (const t of tokens) {
    if (node === null || typeof node !== 'object') throw new Error(`no path ${tokens.join('/')}`);
    if (Array.isArray(node)) {
      const i = arrayIndex(node, t, false);
      node = node[i];
    } else {
      if (!Object.prototype.hasOwnProperty.call(node, t)) throw new Error(`no member ${t}`);
      node = node[t];
    }
  }
  return node;
}

function arrayIndex(arr, token, forInsert) {
  if (token === '-' && forInsert) return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad index ${token}`);
  const i = Number(token);
  if (i > arr.length || (!forInsert && i === arr.length)) throw new Error(`index ${i} out of range`);
  return i;
}

function add(root, tokens, value) {
  if (tokens.length === 0) return value;
  const parent = getAt(root, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
  else if (parent && typeof parent === 'object') parent[last] = value;
  else throw new Error('add into a scalar');
  return root;
}

function remove(root, tokens) {
  if (tokens.length === 0) throw new Error('remove the root');
  const parent = getAt(root, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, false), 1);
  else {
    if (!parent || !Object.prototype.hasOwnProperty.call(parent, last)) throw new Error(`no member ${last}`);
    delete parent[last];
  }
  return root;
}

function equal(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function applyOne(root, op) {
  const path = parsePointer(op.path);
  switch (op.op) {
    case 'add':
      return add(root, path, structuredClone(op.value));
    case 'remove':
      return remove(root, path);
    case 'replace':
      if (path.length === 0) return structuredClone(op.value);
      getAt(root, path);
      return add(remove(root, path), path, structuredClone(op.value));
    case 'move': {
      const from = parsePointer(op.from);
      const value = getAt(root, from);
      return add(remove(root, from), path, value);
    }
    case 'copy':
      return add(root, path, structuredClone(getAt(root, parsePointer(op.from))));
    case 'test':
      if (!equal(getAt(root, path), op.value)) throw new Error(`test failed at ${op.path}`);
      return root;
    default:
      throw new Error(`unknown op ${op.op}`);
  }
}
