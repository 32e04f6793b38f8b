// Two-factor sign-in's part of the entity-store contract: enrolment, each step and recovery code
// accepted once (also when raced by two store instances on a shared engine), removal; run by
// describeStoreContract on every engine.
import { expect, test } from 'vitest';
import type { EntityStore, UserRecord } from '../src/store/types.js';

export function describeTotpContract(
  fresh: () => Promise<{ store: EntityStore; open: () => Promise<EntityStore> }>,
  shared: boolean,
  user: () => UserRecord,
): void {
  const at = '2026-06-01T10:00:00.000Z';
  /** A stored user with 2FA turned on: step 100, recovery codes h1–h3. */
  const enrolled = async (store: EntityStore) => {
    const u = user();
    await store.users.create(u);
    expect(await store.totp.begin(u.id, 'sealed-1', at)).toBe(true);
    expect(await store.totp.enable(u.id, 'sealed-1', 100, ['h1', 'h2', 'h3'], at)).toBe(true);
    return u;
  };

  test('an enrolment stays pending until enabled with its own secret; restarting replaces the secret; an enabled one is never replaced', async () => {
    const { store } = await fresh();
    const u = user();
    await store.users.create(u);
    expect(await store.totp.byUser(u.id)).toBeUndefined();
    expect(await store.totp.begin(u.id, 'sealed-1', at)).toBe(true);
    expect(await store.totp.byUser(u.id)).toEqual({
      user_id: u.id,
      secret_sealed: 'sealed-1',
      created_at: at,
      enabled_at: null,
      last_step: null,
      recovery_hashes: [],
    });
    expect(await store.totp.begin(u.id, 'sealed-2', '2026-06-01T10:05:00.000Z')).toBe(true);
    // The first secret's confirmation comes too late: the enrolment restarted with another.
    expect(await store.totp.enable(u.id, 'sealed-1', 7, ['h'], at)).toBe(false);
    expect(await store.totp.enable(u.id, 'sealed-2', 7, ['h1', 'h2'], at)).toBe(true);
    const on = {
      user_id: u.id,
      secret_sealed: 'sealed-2',
      created_at: '2026-06-01T10:05:00.000Z',
      enabled_at: at,
      last_step: 7,
      recovery_hashes: ['h1', 'h2'],
    };
    expect(await store.totp.byUser(u.id)).toEqual(on);
    expect(await store.totp.begin(u.id, 'sealed-3', at)).toBe(false);
    expect(await store.totp.enable(u.id, 'sealed-2', 9, [], at)).toBe(false);
    expect(await store.totp.byUser(u.id)).toEqual(on);
  });

  test('a time step is accepted only when later than the last one; nothing is accepted while pending', async () => {
    const { store } = await fresh();
    const u = await enrolled(store);
    expect(await store.totp.acceptStep(u.id, 100)).toBe(false);
    expect(await store.totp.acceptStep(u.id, 99)).toBe(false);
    expect(await store.totp.acceptStep(u.id, 101)).toBe(true);
    expect(await store.totp.acceptStep(u.id, 101)).toBe(false);
    expect((await store.totp.byUser(u.id))!.last_step).toBe(101);
    const pending = user();
    await store.users.create(pending);
    await store.totp.begin(pending.id, 's', at);
    expect(await store.totp.acceptStep(pending.id, 5)).toBe(false);
    expect(await store.totp.acceptStep('nobody', 5)).toBe(false);
  });

  test('a recovery code is spent once; unknown ones and pending enrolments spend nothing', async () => {
    const { store } = await fresh();
    const u = await enrolled(store);
    expect(await store.totp.useRecoveryCode(u.id, 'h2')).toBe(true);
    expect(await store.totp.useRecoveryCode(u.id, 'h2')).toBe(false);
    expect(await store.totp.useRecoveryCode(u.id, 'nope')).toBe(false);
    expect((await store.totp.byUser(u.id))!.recovery_hashes).toEqual(['h1', 'h3']);
    expect(await store.totp.useRecoveryCode('nobody', 'h1')).toBe(false);
  });

  test(`the same step or recovery code raced ${shared ? 'by two store instances ' : ''}is accepted exactly once`, async () => {
    const { store, open } = await fresh();
    const twin = shared ? await open() : store;
    const u = await enrolled(store);
    const steps = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? twin : store).totp.acceptStep(u.id, 200)));
    expect(steps.filter(Boolean)).toHaveLength(1);
    const codes = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? twin : store).totp.useRecoveryCode(u.id, 'h1')));
    expect(codes.filter(Boolean)).toHaveLength(1);
    expect(await twin.totp.byUser(u.id)).toMatchObject({ last_step: 200, recovery_hashes: ['h2', 'h3'] });
  });

  test('turning it off removes it (false the second time); a removed user takes theirs along', async () => {
    const { store } = await fresh();
    const u = await enrolled(store);
    expect(await store.totp.remove(u.id)).toBe(true);
    expect(await store.totp.remove(u.id)).toBe(false);
    expect(await store.totp.byUser(u.id)).toBeUndefined();
    const other = await enrolled(store);
    await store.users.remove(other.id);
    expect(await store.totp.byUser(other.id)).toBeUndefined();
    // The same id can enrol afresh.
    await store.users.create({ ...other, email: 'again@example.com' });
    expect(await store.totp.begin(other.id, 'sealed-new', at)).toBe(true);
    expect(await store.totp.byUser(other.id)).toMatchObject({ enabled_at: null, recovery_hashes: [] });
  });

  test('the list holds every enabled and pending record, whole, in user id order', async () => {
    const { store } = await fresh();
    expect(await store.totp.list()).toEqual([]);
    const on = await enrolled(store);
    const pending = user();
    await store.users.create(pending);
    await store.totp.begin(pending.id, 'sealed-p', at);
    const expected = [await store.totp.byUser(on.id), await store.totp.byUser(pending.id)].sort((a, b) => (a!.user_id < b!.user_id ? -1 : 1));
    expect(await store.totp.list()).toEqual(expected);
    expect(expected[0]).toBeDefined();
  });

  test('lookups with hostile ids find nothing and change nothing', async () => {
    const { store } = await fresh();
    const u = await enrolled(store);
    for (const probe of ["' OR 1=1 --", '%', '_', '*', '\u0000']) {
      expect(await store.totp.byUser(probe)).toBeUndefined();
      expect(await store.totp.acceptStep(probe, 1_000)).toBe(false);
      expect(await store.totp.useRecoveryCode(u.id, probe)).toBe(false);
      expect(await store.totp.remove(probe)).toBe(false);
    }
    expect(await store.totp.byUser(u.id)).toMatchObject({ last_step: 100, recovery_hashes: ['h1', 'h2', 'h3'] });
  });
}
