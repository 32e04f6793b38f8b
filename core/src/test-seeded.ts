// Tests' seeded generator (mulberry32): the same values on every run. Not part of the build
// (tsconfig excludes src/**/test-*.ts): only test files import it.

/** A generator of numbers in [0, 1) from `seed`, the same sequence every run. */
export function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
