import { contract } from '@adops/core';
const keys = new Map();
function walk(s, path, seen) {
  if (!s || typeof s !== 'object' || !s._zod) return;
  if (seen.has(s)) return; seen.add(s);
  const d = s._zod.def;
  if (d.type === 'object') for (const [k, v] of Object.entries(d.shape)) { const p = [...path, k].join('.'); keys.set(p, (keys.get(p)||0)+1); walk(v, [...path, k], seen); }
  for (const f of ['innerType','in','out','element','schema','left','right','valueType','catchall']) if (d[f]) walk(d[f], path, seen);
  if (d.options) for (const o of d.options) walk(o, path, seen);
  if (d.items) for (const o of d.items) walk(o, path, seen);
}
for (const t of Object.values(contract)) for (const r of Object.values(t)) for (const part of ['params','query','body']) walk(r[part], [], new Set());
console.log([...keys.keys()].sort().join('\n'));
