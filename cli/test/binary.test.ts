// The built `adops` binary as a user runs it: help, a command against a live server that
// exits on its own (no dangling handles), and `serve` starting and stopping on SIGTERM.
// Needs the build (`npx tsc -b cli`); skipped with a note when cli/dist is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { newConfigDir, runCli } from './helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = path.join(root, 'cli/bin/adops.js');
const built = existsSync(path.join(root, 'cli/dist/main.js'));
const serverBuilt = existsSync(path.join(root, 'server/dist/main.js'));
if (!built) console.warn('cli/test/binary.test.ts skipped: cli/dist is missing (run `npx tsc -b cli` first)');

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** From the last output to the exit: what a held socket or timer would stretch. */
  msAfterOutput: number;
}

function runBinary(args: string[], env: Record<string, string>, stdin = ''): Promise<Spawned> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  let lastOutput = started;
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    lastOutput = performance.now();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    lastOutput = performance.now();
  });
  child.stdin.end(stdin);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const ended = performance.now();
      resolve({ code, stdout, stderr, ms: ended - started, msAfterOutput: ended - lastOutput });
    }),
  );
}

describe.skipIf(!built)('built binary', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('adops --help lists the commands and the exit codes', async () => {
    const result = await runBinary(['--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Uso: adops');
    for (const command of ['serve', 'login', 'logout', 'whoami', 'passwd', 'users', 'tokens']) expect(result.stdout).toContain(command);
    expect(result.stdout).toContain('Códigos de salida');
  });

  it('logs in with a piped password and exits by itself with the exit code of the command', async () => {
    const dir = await newConfigDir();
    const env = { ADOPS_CONFIG_DIR: dir, ADOPS_URL: server.url };
    const login = await runBinary(['login', '--email', ADMIN.email], env, `${ADMIN.password}\n`);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    const who = await runBinary(['whoami', '--json'], env);
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ email: ADMIN.email, is_admin: true });
    // Exits as soon as the answer is printed: no keep-alive socket or timer holds it open (a
    // kept-alive socket would hold it for the server's 5 s idle timeout). Measured from the
    // answer, not from the start, so a busy machine's slow start does not count.
    expect(who.msAfterOutput).toBeLessThan(3000);
    const refused = await runBinary(['users', 'delete', 'nobody', '--yes'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe('Usuario no encontrado');
    const signedOut = await runBinary(['whoami'], { ...env, ADOPS_CONFIG_DIR: await newConfigDir() });
    expect(signedOut.code).toBe(3);
  });

  it.skipIf(!serverBuilt)('adops serve starts the server and stops cleanly on SIGTERM', async () => {
    const data = await mkdtemp(path.join(tmpdir(), 'adops-serve-'));
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data', data, '--no-demo'], {
      env: { ...process.env, ADOPS_ADMIN_EMAIL: 'boss@test.local', ADOPS_ADMIN_PASSWORD: 'boss-pass-123', HOST: '127.0.0.1' },
      stdio: 'pipe',
    });
    let output = '';
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "listening" line: ${output}`)), 15_000);
        child.stdout.on('data', (c: Buffer) => {
          output += c.toString();
          const m = /listening on (http:\/\/\S+)/.exec(output);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.on('exit', () => reject(new Error(`serve exited early: ${output}`)));
      });
      expect(output).toContain(data);
      // The served API accepts the configured admin through the CLI itself.
      const login = await runCli(['login', '--email', 'boss@test.local'], await newConfigDir(), url, { stdin: 'boss-pass-123\n' });
      expect(login.code).toBe(0);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const stopAt = performance.now();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(performance.now() - stopAt).toBeLessThan(5000);
      await expect(fetch(`${url}/api/health`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
      await rm(data, { recursive: true, force: true });
    }
  });
});
