// Password hashing with scrypt (OWASP: N=2^17, r=8, p=1), at most two hashes at once so a
// login flood cannot starve the rest of the server, and bounded queues behind them: past them the
// caller gets 503 with Retry-After at once. Work for signed-in users, known devices and the server
// itself waits in its own queue, served first, so a flood never keeps their owner out;
// anonymous sign-ins queue fairly, a few places per address. Verification in constant time.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { DomainError } from '../domain-errors.js';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

/** Hashes running at once. */
export const MAX_RUNNING = 2;
/** Hashes waiting in each queue beyond the two running: at ~0.1–0.2 s each, about 2 s of work. */
export const MAX_WAITING = 16;
/** Anonymous sign-ins one address may have waiting: one address cannot fill the queue. */
export const MAX_WAITING_PER_ADDRESS = 4;
export const PASSWORDS_BUSY = 'El servidor está ocupado verificando contraseñas. Inténtalo de nuevo en unos segundos.';

/** Whose hash it is: `null` for trusted work (a signed-in user, a known device, the server), else the address of an anonymous sign-in. */
export type HashFor = string | null;

let running = 0;
const trusted: Array<() => void> = [];
const anonymous: Array<{ address: string; start: () => void }> = [];
const waitingFrom = new Map<string, number>();

/** Hands a freed slot to the next waiting hash: trusted work first, then anonymous sign-ins in arrival order. */
function startNext(): void {
  const next = trusted.shift();
  if (next) {
    running++;
    next();
    return;
  }
  const turn = anonymous.shift();
  if (!turn) return;
  const left = (waitingFrom.get(turn.address) ?? 1) - 1;
  if (left > 0) waitingFrom.set(turn.address, left);
  else waitingFrom.delete(turn.address);
  running++;
  turn.start();
}

/**
 * A slot for `from`: undefined when one is free (taken at once), else a place in its queue that
 * resolves with a slot handed over (503 when the queue, or the address's share of it, is full).
 */
function place(from: HashFor): Promise<void> | undefined {
  // A slot is only free while nothing waits: a freed slot goes straight to the next in line.
  if (running < MAX_RUNNING) {
    running++;
    return undefined;
  }
  if (from === null) {
    if (trusted.length >= MAX_WAITING) throw new DomainError('unavailable', PASSWORDS_BUSY, { retryAfterSeconds: 2 });
    return new Promise<void>((resolve) => trusted.push(resolve));
  }
  const mine = waitingFrom.get(from) ?? 0;
  if (anonymous.length >= MAX_WAITING || mine >= MAX_WAITING_PER_ADDRESS)
    throw new DomainError('unavailable', PASSWORDS_BUSY, { retryAfterSeconds: 2 });
  waitingFrom.set(from, mine + 1);
  return new Promise<void>((start) => anonymous.push({ address: from, start }));
}

async function limited<T>(from: HashFor, work: () => Promise<T>): Promise<T> {
  const turn = place(from);
  if (turn) await turn;
  try {
    return await work();
  } finally {
    running--;
    startNext();
  }
}

/** Hashes running or waiting: 0 once a flood has drained (tests wait on it instead of a clock). */
export function hashesInFlight(): number {
  return running + trusted.length + anonymous.length;
}

const KEYLEN = 32;

async function derive(password: string, salt: Buffer, logN: number, r: number, p: number, from: HashFor): Promise<Buffer> {
  const N = 2 ** logN;
  return limited(from, () => scrypt(password, salt, KEYLEN, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }));
}

/** `scrypt$logN$r$p$salt$hash` (base64url parts), so parameters can rise later. Trusted work (an admin, a signed-in user, the server). */
export async function hashPassword(password: string, logN = 17): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, logN, 8, 1, null);
  return ['scrypt', logN, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `stored` was made from; `from` says whose check it is (the queue it waits in). */
export async function verifyPassword(password: string, stored: string, from: HashFor): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p), from);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
