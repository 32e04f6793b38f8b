// The group commit waits for company only when company is coming: a write after a quiet spell
// is committed at the end of its event-loop turn (a live event sent alone reached the streams
// ~5 ms later than it had to, every time), while writes that come close together still share a
// commit. The linger here is a minute, so a write that waited for it could never settle in time.
import { createHook } from 'node:async_hooks';
import { expect, test } from 'vitest';
import { EventWriter, type WritePart } from '../src/warehouse/event-writer.js';
import type { ReferrerEvent } from '../src/warehouse/types.js';

const event = (id: number) => ({ id }) as ReferrerEvent;
const turn = () => new Promise<void>((r) => setImmediate(r));

function writer() {
  const commits: number[][] = [];
  const committed: number[] = [];
  const w = new EventWriter(
    async (parts: ReadonlyArray<WritePart<never>>) => {
      commits.push(parts.flatMap((p) => p.events.map((e) => e.id)));
      return undefined;
    },
    (events) => committed.push(...events.map((e) => e.id)),
    { lingerMs: 60_000, maxRows: 1000 },
  );
  return { w, commits, committed };
}

test('a write after a quiet spell is committed at once, with what the same turn wrote', async () => {
  const { w, commits, committed } = writer();
  await Promise.all([w.write([event(1), event(2)]), w.write([event(3)])]);
  expect(commits).toEqual([[1, 2, 3]]);
  expect(committed).toEqual([1, 2, 3]);
  await w.close();
});

test('writes that come close together wait for company and share a commit', async () => {
  const { w, commits } = writer();
  await w.write([event(1)]); // alone: at once
  await turn(); // its flush over (what comes during one is committed right after it)
  const second = w.write([event(2)]); // within the linger of the first: waits
  await turn();
  const third = w.write([event(3)]);
  await turn();
  await turn();
  expect(commits).toEqual([[1]]);
  await w.close(); // commits what waits
  await Promise.all([second, third]);
  expect(commits).toEqual([[1], [2, 3]]);
});

test('a full batch does not wait', async () => {
  const { w, commits } = writer();
  await w.write([event(1)]);
  const many = Array.from({ length: 1000 }, (_, i) => event(i + 2));
  await w.write(many);
  expect(commits.map((c) => c.length)).toEqual([1, 1000]);
  await w.close();
});

test('under load, commits are paced: what arrives during a flush waits for commitEveryMs after that flush began, then goes in one commit', async () => {
  const commits: number[][] = [];
  let release!: () => void;
  const w = new EventWriter(
    async (parts: ReadonlyArray<WritePart<never>>) => {
      commits.push(parts.flatMap((p) => p.events.map((e) => e.id)));
      if (commits.length === 1) await new Promise<void>((r) => (release = r)); // the first commit is under way
      return undefined;
    },
    () => {},
    { lingerMs: 60_000, maxRows: 1000, commitEveryMs: 60_000 },
  );
  const first = w.write([event(1)]); // alone: at once
  await turn();
  const later = [2, 3, 4].map((id) => w.write([event(id)])); // hits arriving while it commits
  release();
  await first;
  await turn();
  await turn();
  expect(commits).toEqual([[1]]); // not back to back: each commit's fixed cost is spread over more events
  await w.close(); // closing commits what waits, at once
  await Promise.all(later);
  expect(commits).toEqual([[1], [2, 3, 4]]);
});

test('a full batch is not held by the pacing', async () => {
  const commits: number[][] = [];
  let release!: () => void;
  const w = new EventWriter(
    async (parts: ReadonlyArray<WritePart<never>>) => {
      commits.push(parts.flatMap((p) => p.events.map((e) => e.id)));
      if (commits.length === 1) await new Promise<void>((r) => (release = r));
      return undefined;
    },
    () => {},
    { lingerMs: 60_000, maxRows: 3, commitEveryMs: 60_000 },
  );
  const first = w.write([event(1)]);
  await turn();
  const full = w.write([event(2), event(3), event(4)]); // a full batch, arriving during the first flush
  release();
  await Promise.all([first, full]); // settles without close(): committed right after the first
  expect(commits).toEqual([[1], [2, 3, 4]]);
  await w.close();
});

test('a write right after a commit (none arrived during it) waits for the pacing too', async () => {
  const commits: number[][] = [];
  const w = new EventWriter(
    async (parts: ReadonlyArray<WritePart<never>>) => {
      commits.push(parts.flatMap((p) => p.events.map((e) => e.id)));
      return undefined;
    },
    () => {},
    { lingerMs: 0, maxRows: 1000, commitEveryMs: 60_000 },
  );
  await w.write([event(1)]); // alone: at once
  const second = w.write([event(2)]); // alone as well (linger 0), but the last commit began just now
  await turn();
  await turn();
  expect(commits).toEqual([[1]]);
  await w.close();
  await second;
  expect(commits).toEqual([[1], [2]]);
});

test("enqueue (the beacon's way in) takes no promise per write; each write hears once its batch committed, or the commit's error", async () => {
  const { w, commits, committed } = writer();
  const heard: Array<[number, unknown]> = [];
  let promises = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (type === 'PROMISE') promises++;
    },
  });
  hook.enable();
  for (let i = 1; i <= 50; i++) w.enqueue([event(i)], undefined, (e) => heard.push([i, e]));
  hook.disable();
  expect(promises).toBe(0);
  expect(heard).toEqual([]); // never before the commit
  await w.close();
  expect(commits).toEqual([Array.from({ length: 50 }, (_, i) => i + 1)]);
  expect(committed).toHaveLength(50);
  expect(heard).toEqual(Array.from({ length: 50 }, (_, i) => [i + 1, undefined]));

  const failing = new EventWriter(
    async () => {
      throw new Error('disk full');
    },
    () => {},
    { lingerMs: 60_000, maxRows: 1000 },
  );
  const errors: unknown[] = [];
  failing.enqueue([event(1)], undefined, (e) => errors.push(e));
  await failing.close();
  expect(errors.map((e) => (e as Error).message)).toEqual(['disk full']);
});
