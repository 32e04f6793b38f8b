// The secrets of a backup, encrypted with a passphrase the admin gives: a key derived with scrypt
// (its cost and salt in the manifest), each encrypted file AES-256-GCM with its own nonce and its
// path as associated data (a file cannot pass for another), and a check value in the manifest so a
// wrong passphrase is told before anything is restored.
import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { BackupError, type BackupEncryption } from './manifest.js';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const CHECK_LABEL = 'adops-backup-passphrase-check';

/** The passphrase's keys: one encrypts, the other proves the passphrase. */
export interface BackupKeys {
  key: Buffer;
  check: string;
}

async function derive(passphrase: string, salt: Buffer, logN: number): Promise<{ key: Buffer; check: string }> {
  const N = 2 ** logN;
  const bytes = await scrypt(passphrase.normalize('NFC'), salt, 64, { N, r: 8, p: 1, maxmem: 256 * N * 8 + 32 * 1024 * 1024 });
  const check = createHmac('sha256', bytes.subarray(32)).update(CHECK_LABEL).digest('hex');
  return { key: bytes.subarray(0, 32), check };
}

/** New keys for a backup and what its manifest says of them (`files` filled as files are encrypted). */
export async function newBackupKeys(passphrase: string, logN: number): Promise<{ keys: BackupKeys; encryption: BackupEncryption }> {
  const salt = randomBytes(16);
  const keys = await derive(passphrase, salt, logN);
  return {
    keys,
    encryption: { cipher: 'aes-256-gcm', kdf: 'scrypt', log_n: logN, r: 8, p: 1, salt: salt.toString('base64'), check: keys.check, files: [] },
  };
}

/** The backup's keys from its passphrase; BackupError in words when it is not the one the backup was made with. */
export async function openBackupKeys(passphrase: string, encryption: BackupEncryption): Promise<BackupKeys> {
  const keys = await derive(passphrase, Buffer.from(encryption.salt, 'base64'), encryption.log_n);
  if (!timingSafeEqual(Buffer.from(keys.check, 'hex'), Buffer.from(encryption.check, 'hex')))
    throw new BackupError('La frase de paso no es la de esta copia: no se ha restaurado nada (escríbela tal como se dio al hacer la copia)');
  return keys;
}

/** nonce ‖ ciphertext ‖ tag of `plain`, bound to `name` (the file's path in the backup). */
export function encryptBuffer(keys: BackupKeys, name: string, plain: Buffer): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.key, nonce).setAAD(Buffer.from(name));
  return Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

const damaged = (name: string) => new BackupError(`${name} no se puede descifrar: la copia está dañada o fue modificada`);

export function decryptBuffer(keys: BackupKeys, name: string, sealed: Buffer): Buffer {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw damaged(name);
  const decipher = createDecipheriv('aes-256-gcm', keys.key, sealed.subarray(0, NONCE_BYTES)).setAAD(Buffer.from(name));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw damaged(name);
  }
}

/** Encrypts the file `from` into `to` (streamed: an audit trail may be large), bound to `name`. */
export async function encryptFile(keys: BackupKeys, name: string, from: string, to: string): Promise<void> {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.key, nonce).setAAD(Buffer.from(name));
  const out = createWriteStream(to, { mode: 0o600 });
  out.write(nonce);
  await pipeline(createReadStream(from), cipher, out, { end: false });
  await new Promise<void>((resolve, reject) => out.end(cipher.getAuthTag(), (e?: Error | null) => (e ? reject(e) : resolve())));
}

/** Decrypts the file `from` into `to`; BackupError (and `to` incomplete: the caller's staging goes) when it does not verify. */
export async function decryptFile(keys: BackupKeys, name: string, from: string, to: string): Promise<void> {
  const { size } = await stat(from);
  if (size < NONCE_BYTES + TAG_BYTES) throw damaged(name);
  // Small files (and empty ones, which a stream's byte range cannot express) in one piece.
  if (size <= 4 * 1024 * 1024) {
    await writeFile(to, decryptBuffer(keys, name, await readFile(from)), { mode: 0o600 });
    return;
  }
  const head = Buffer.alloc(NONCE_BYTES);
  const tag = Buffer.alloc(TAG_BYTES);
  const handle = await open(from, 'r');
  try {
    await handle.read(head, 0, NONCE_BYTES, 0);
    await handle.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
  } finally {
    await handle.close();
  }
  const decipher = createDecipheriv('aes-256-gcm', keys.key, head).setAAD(Buffer.from(name));
  decipher.setAuthTag(tag);
  try {
    await pipeline(createReadStream(from, { start: NONCE_BYTES, end: size - TAG_BYTES - 1 }), decipher, createWriteStream(to, { mode: 0o600 }));
  } catch {
    throw damaged(name);
  }
}
