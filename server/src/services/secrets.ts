// Keys generated once: the JWT secret (unless ADOPS_JWT_SECRET is set), the key sealing
// publisher tokens and the key hashing them. With lowdb they live in the data directory (mode
// 0600); with a store shared by several instances, in its settings, so every instance has the same.
import { randomBytes, createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { readFile, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import type { EntityStore, SettingsRepository } from '../store/types.js';

export interface Secrets {
  jwtSecret: string;
  sealKey: Buffer;
  hashKey: Buffer;
}

interface SecretsFile {
  jwt_secret: string;
  seal_key: string;
  hash_key: string;
}

const generate = (): SecretsFile => ({
  jwt_secret: randomBytes(48).toString('base64url'),
  seal_key: randomBytes(32).toString('base64'),
  hash_key: randomBytes(32).toString('base64'),
});

const fromStored = (stored: SecretsFile, jwtSecretFromEnv?: string): Secrets => ({
  jwtSecret: jwtSecretFromEnv ?? stored.jwt_secret,
  sealKey: Buffer.from(stored.seal_key, 'base64'),
  hashKey: Buffer.from(stored.hash_key, 'base64'),
});

/** The secrets where this store keeps them: the data directory's file (lowdb) or the store's settings (shared). */
export function openSecrets(store: EntityStore, dataDir: string, jwtSecretFromEnv?: string): Promise<Secrets> {
  return store.engine === 'lowdb' ? loadSecrets(dataDir, jwtSecretFromEnv) : loadStoredSecrets(store.settings, jwtSecretFromEnv);
}

/** The data directory's secrets.json (mode 0600), created on first start. */
export async function loadSecrets(dataDir: string, jwtSecretFromEnv?: string): Promise<Secrets> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: SecretsFile;
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as SecretsFile;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    stored = generate();
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600, flag: 'wx' });
  }
  await chmod(file, 0o600);
  return fromStored(stored, jwtSecretFromEnv);
}

/** The `secrets` setting, created by whichever instance starts first; the others read the same. */
export async function loadStoredSecrets(settings: SettingsRepository, jwtSecretFromEnv?: string): Promise<Secrets> {
  return fromStored(await settings.putIfAbsent<SecretsFile>('secrets', generate()), jwtSecretFromEnv);
}

/** AES-256-GCM: iv(12) ‖ tag(16) ‖ ciphertext, base64url. */
export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url');
}

export function unseal(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export const hmac = (key: Buffer, value: string): string => createHmac('sha256', key).update(value).digest('hex');
