// Keys kept in the data directory (mode 0600), generated once: the JWT secret (unless
// ADOPS_JWT_SECRET is set), the key sealing publisher tokens and the key hashing them.
import { randomBytes, createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { readFile, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';

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

export async function loadSecrets(dataDir: string, jwtSecretFromEnv?: string): Promise<Secrets> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: SecretsFile;
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as SecretsFile;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    stored = {
      jwt_secret: randomBytes(48).toString('base64url'),
      seal_key: randomBytes(32).toString('base64'),
      hash_key: randomBytes(32).toString('base64'),
    };
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600, flag: 'wx' });
  }
  await chmod(file, 0o600);
  return {
    jwtSecret: jwtSecretFromEnv ?? stored.jwt_secret,
    sealKey: Buffer.from(stored.seal_key, 'base64'),
    hashKey: Buffer.from(stored.hash_key, 'base64'),
  };
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
