// The stored session: `{ server, token, tz? }` (tz: the server's reporting time zone) in <config dir>/adops/credentials.json, readable
// only by its owner (file 0600, directory 0700). ADOPS_CONFIG_DIR overrides the directory.
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

export interface Credentials {
  server: string;
  token: string;
  /** The server's reporting time zone (ADOPS_TZ there), learnt at sign-in. */
  tz?: string;
}

/** ADOPS_CONFIG_DIR, else $XDG_CONFIG_HOME/adops, else ~/.config/adops. */
export function configDir(env: Record<string, string | undefined>): string {
  if (env.ADOPS_CONFIG_DIR) return path.resolve(env.ADOPS_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'adops');
}

export const credentialsPath = (env: Record<string, string | undefined>) => path.join(configDir(env), 'credentials.json');

/** The stored session, or null when there is none (a damaged file counts as none). */
export async function loadCredentials(env: Record<string, string | undefined>): Promise<Credentials | null> {
  let text: string;
  try {
    text = await readFile(credentialsPath(env), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Credentials>;
    if (typeof parsed.server === 'string' && typeof parsed.token === 'string' && parsed.token) {
      return { server: parsed.server, token: parsed.token, ...(typeof parsed.tz === 'string' && parsed.tz ? { tz: parsed.tz } : {}) };
    }
  } catch {
    /* damaged: treated as signed out */
  }
  return null;
}

/** Writes atomically (temp file + rename) with owner-only permissions. */
export async function saveCredentials(env: Record<string, string | undefined>, creds: Credentials): Promise<string> {
  const dir = configDir(env);
  // Directories we create are 0700; an existing one (ADOPS_CONFIG_DIR=/somewhere) keeps its mode.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'credentials.json');
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
  return file;
}

/**
 * Known-device tokens, one per server and e-mail, in devices.json beside the credentials (0600):
 * a sign-in from this terminal is then judged by its own failures, never locked out by others'.
 * Signing out keeps them (the device stays known).
 */
const devicesPath = (env: Record<string, string | undefined>) => path.join(configDir(env), 'devices.json');
const deviceKey = (server: string, email: string) => `${server.replace(/\/+$/, '')}|${email.trim().toLowerCase()}`;

async function loadDevices(env: Record<string, string | undefined>): Promise<Record<string, string>> {
  try {
    const parsed = JSON.parse(await readFile(devicesPath(env), 'utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {}; // none yet, or damaged: this terminal signs in as an unknown device
  }
}

/** This terminal's device token for the account on that server ('' when it has none yet). */
export async function loadDeviceToken(env: Record<string, string | undefined>, server: string, email: string): Promise<string> {
  return (await loadDevices(env))[deviceKey(server, email)] ?? '';
}

export async function saveDeviceToken(env: Record<string, string | undefined>, server: string, email: string, token: string): Promise<void> {
  const devices = await loadDevices(env);
  if (devices[deviceKey(server, email)] === token) return;
  devices[deviceKey(server, email)] = token;
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = devicesPath(env);
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(devices, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}

/** Removes the stored session; true when there was one. */
export async function removeCredentials(env: Record<string, string | undefined>): Promise<boolean> {
  const file = credentialsPath(env);
  try {
    await rm(file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}
