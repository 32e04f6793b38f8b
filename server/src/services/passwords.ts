// Password hashing with scrypt (OWASP: N=2^17, r=8, p=1), at most two hashes at once so a
// login flood cannot starve the rest of the server, and a bounded queue behind them: past it the
// caller gets 503 with Retry-After at once, so a flood never makes a real sign-in wait more than
// the queue's length (about 2 s). Verification in constant time.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { httpError } from '../errors.js';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

/** Hashes running at once. */
export const MAX_RUNNING = 2;
/** Hashes waiting beyond the two running: at ~0.1–0.2 s each, about 2 s of work. */
export const MAX_WAITING = 16;
export const PASSWORDS_BUSY = 'El servidor está ocupado verificando contraseñas. Inténtalo de nuevo en unos segundos.';
let running = 0;
const waiting: Array<() => void> = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING) throw httpError(503, PASSWORDS_BUSY, 2);
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const KEYLEN = 32;

async function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  return limited(() => scrypt(password, salt, KEYLEN, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }));
}

/** `scrypt$logN$r$p$salt$hash` (base64url parts), so parameters can rise later. */
export async function hashPassword(password: string, logN = 17): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, logN, 8, 1);
  return ['scrypt', logN, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}
