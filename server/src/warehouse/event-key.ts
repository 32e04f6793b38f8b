// A fast 64-bit hash of text (two 32-bit multiply-xor lanes over its UTF-16 code units): the
// fingerprint of an idempotency key in DuckDB's in-memory index. Not cryptographic: a match is
// always confirmed against the stored key itself.
export interface Hash64 {
  hi: number;
  lo: number;
}

export function hash64(text: string): Hash64 {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  // Final avalanche of each lane (murmur3's fmix32), the other lane mixed in.
  h1 ^= h2;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b);
  h1 = Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  h2 ^= h1;
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b);
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 ^= h2 >>> 16;
  return { hi: h1 | 0, lo: h2 | 0 };
}
