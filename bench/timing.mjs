// Timing shared by the benches: a query's time as the median of 3 timed runs after a warm-up.

/** Median of 3 timed runs of `fn` (ms) after one untimed warm-up run. */
export async function medianOfThree(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[1];
}
