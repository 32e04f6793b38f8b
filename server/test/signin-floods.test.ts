// Sign-in stays open to its owner under floods (issue 26): a browser or terminal that signed in
// before (a known device: the HttpOnly cookie, or the terminal's device token) is judged by its
// own failures only, and its password check waits ahead of anonymous ones; every attempt is
// counted before its hash, so a burst is judged as it arrives (passwords and 2FA codes alike);
// floods from one address are refused with 429 and cannot fill the hashing queue. A trusted proxy
// lets each request come from its own address (X-Forwarded-For).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { statusOf } from '../src/errors.js';
import { hashesInFlight, hashPassword, MAX_RUNNING, MAX_WAITING_PER_ADDRESS, verifyPassword } from '../src/services/passwords.js';
import { ADMIN, startTestServer, type TestServer } from './helpers.js';
import { waitFor } from './wait.js';
import { awayFromStepEdge, totpCode } from './totp-codes.js';

const TOO_MANY = 'Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ trustProxy: 1 });
});
afterAll(() => s.close());

let ipSeq = 0;
const freshIp = () => `203.0.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

interface Attempt {
  email: string;
  password: string;
  ip?: string;
  /** The browser's cookie header (its known-device cookie). */
  cookie?: string;
  /** The terminal's device token (in the body). */
  device_token?: string;
  totp?: string;
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { detail?: string; access_token?: string; device_token?: string; totp_required?: boolean };
  /** The known-device cookie the server set, as a browser sends it back (`adops_device=…`), and its attributes. */
  cookie: string | null;
  cookieAttributes: string | null;
}

async function login(a: Attempt, server = s): Promise<Answer> {
  const { ip, cookie, ...body } = a;
  const res = await server.fetch('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip ?? freshIp(), ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const set = res.headers.getSetCookie().find((c) => c.startsWith('adops_device='));
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Answer['body'],
    cookie: set ? set.split(';')[0] : null,
    cookieAttributes: set ? set.split(';').slice(1).join(';').trim() : null,
  };
}

let n = 0;
async function newUser(server = s) {
  const email = `owner${++n}@test.local`;
  const password = `owner-pass-${n}-ok`;
  await server.app.services.users.create({ first_name: 'Dueña', last_name: '', email, password, is_admin: false });
  return { email, password };
}

/** Eleven wrong passwords for the account, each from its own address. */
async function lockOut(email: string, server = s) {
  for (let i = 0; i < 11; i++) expect((await login({ email, password: `guess-${i}` }, server)).status).toBeOneOf([401, 429]);
}

describe('a known device is not locked out by failures from elsewhere', () => {
  test('eleven wrong passwords from eleven addresses: the owner signs in from a known browser and a known terminal; an unknown device gets 429', async () => {
    const u = await newUser();
    // The owner signed in before: the browser kept the cookie, the terminal its token.
    const browser = await login({ ...u });
    expect(browser.status).toBe(200);
    expect(browser.cookie).toMatch(/^adops_device=d1\./);
    expect(browser.body.device_token).toBeUndefined(); // a browser's token is never readable by scripts
    const terminal = await login({ ...u, device_token: '' });
    expect(terminal.body.device_token).toMatch(/^d1\./);

    await lockOut(u.email);
    const unknown = await login({ ...u });
    expect([unknown.status, unknown.body.detail]).toEqual([429, TOO_MANY]);
    expect(Number(unknown.retryAfter)).toBeGreaterThan(800);

    const fromBrowser = await login({ ...u, cookie: browser.cookie! });
    expect(fromBrowser.status).toBe(200);
    expect(fromBrowser.body.access_token).toBeTruthy();
    const fromTerminal = await login({ ...u, device_token: terminal.body.device_token });
    expect(fromTerminal.status).toBe(200);
    expect(fromTerminal.body.device_token).toBe(terminal.body.device_token);
    // Even from the very address the flood came from, the known device gets in.
    const floodIp = freshIp();
    for (let i = 0; i < 30; i++) await login({ email: `spray${i}@test.local`, password: 'x', ip: floodIp });
    expect((await login({ ...u, ip: floodIp })).status).toBe(429);
    expect((await login({ ...u, ip: floodIp, cookie: browser.cookie! })).status).toBe(200);
    // The unknown device is still refused: the owner's success from a known one does not reopen the account to guessing.
    expect((await login({ ...u })).status).toBe(429);
  });

  test('the cookie is HttpOnly, SameSite=Strict, sent to the sign-in route only and lasts a year; it keeps the tokens of several accounts', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const first = await login({ ...a });
    expect(first.cookieAttributes).toMatch(/(^|; )path=\/api\/login(;|$)/i);
    expect(first.cookieAttributes).toMatch(/(^|; )httponly(;|$)/i);
    expect(first.cookieAttributes).toMatch(/(^|; )samesite=strict(;|$)/i);
    const expires = Date.parse(/expires=([^;]+)/i.exec(first.cookieAttributes!)![1]);
    expect(expires - Date.now()).toBeGreaterThan(364 * 86_400_000);
    // Over plain HTTP (this test server) it cannot be Secure; behind HTTPS it is.
    expect(first.cookieAttributes).not.toMatch(/secure/i);
    // A second account signs in on the same browser: the cookie now knows both.
    const second = await login({ ...b, cookie: first.cookie! });
    await lockOut(a.email);
    await lockOut(b.email);
    expect((await login({ ...a, cookie: second.cookie! })).status).toBe(200);
    expect((await login({ ...b, cookie: second.cookie! })).status).toBe(200);
  });

  test("another account's token, a forged one or garbage is no known device", async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const mine = await login({ ...owner, device_token: '' });
    const theirs = await login({ ...other, device_token: '' });
    await lockOut(owner.email);
    const token = mine.body.device_token!;
    const forged = `${token.slice(0, -4)}${token.endsWith('0000') ? '1111' : '0000'}`;
    for (const device_token of [theirs.body.device_token!, forged, 'd1.x.y', 'garbage', `${token}.${token}`]) {
      const answer = await login({ ...owner, device_token });
      expect(answer.status, device_token).toBe(429);
    }
    for (const cookie of [theirs.cookie!, `adops_device=${forged}`, 'adops_device=%00%ff', `adops_device=${'d1.'.repeat(500)}`])
      expect((await login({ ...owner, cookie })).status, cookie.slice(0, 40)).toBe(429);
    expect((await login({ ...owner, device_token: token })).status).toBe(200);
  });

  test("a known device has its own limit: five wrong passwords from it, then 429 there only; the account's other devices are untouched", async () => {
    const u = await newUser();
    const laptop = await login({ ...u, device_token: '' });
    const phone = await login({ ...u, device_token: '' });
    for (let i = 0; i < 5; i++) expect((await login({ ...u, password: 'wrong-pass', device_token: laptop.body.device_token })).status).toBe(401);
    const refused = await login({ ...u, device_token: laptop.body.device_token });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(800);
    expect((await login({ ...u, device_token: phone.body.device_token })).status).toBe(200);
    expect((await login({ ...u })).status).toBe(200); // its failures did not count against unknown devices
  });
});

describe('a burst is judged as it arrives', () => {
  test('18 wrong passwords at once from one address: 5 are checked (401), 13 refused with 429; then the right one is refused too', async () => {
    const u = await newUser();
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 18 }, (_, i) => login({ email: u.email, password: `burst-${i}`, ip })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((x) => x === 401)).toHaveLength(5);
    expect(statuses.filter((x) => x === 429)).toHaveLength(13);
    for (const a of answers.filter((x) => x.status === 429)) expect(Number(a.retryAfter)).toBeGreaterThan(800);
    expect((await login({ ...u, ip })).status).toBe(429);
  });

  test('18 wrong 2FA codes at once with the right password: 5 are checked (401 totp_required), 13 refused with 429; then the right code is refused too', async () => {
    const u = await newUser();
    const api = await s.as(u.email, u.password);
    await awayFromStepEdge();
    const { secret } = await api.auth.totpBegin({ password: u.password });
    await api.auth.totpConfirm({ code: await totpCode(secret, -1) });
    const right = await totpCode(secret);
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 18 }, (_, i) => login({ ...u, ip, totp: String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0') })),
    );
    expect(answers.filter((a) => a.status === 401 && a.body.totp_required === true)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(13);
    expect((await login({ ...u, ip, totp: right })).status).toBe(429);
  });
});

describe('floods', () => {
  // Hashes slow enough (2^12) that a flood really keeps the queue full.
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer({ trustProxy: 1, scryptLogN: 12 });
  });
  afterAll(() => slow?.close());
  /** Resolves once `check` holds (polled closely: a flood's states are brief), or fails after `ms`. */
  const until = async (check: () => boolean, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  beforeEach(async () => {
    // Each test starts with an empty hashing queue.
    await until(() => hashesInFlight() === 0);
  });

  test("40 at a time from 200 addresses, a quarter at the owner's account: the owner, from a known device, signs in every time while it runs; the flood gets 503 and 429", async () => {
    const addresses = Array.from({ length: 200 }, () => freshIp());
    // The owner's laptop signed in before, behind the same address as part of the flood.
    const ownIp = addresses[0];
    const laptop = await login({ ...ADMIN, ip: ownIp }, slow);
    expect(laptop.status).toBe(200);
    const flood: number[] = [];
    let running = true;
    const bot = async (w: number) => {
      for (let i = 0; running; i++) {
        // A quarter of them guess the owner's password, the rest spray made-up accounts.
        const email = (w + i) % 4 === 0 ? ADMIN.email : `bot${w}-${i}@test.local`;
        const a = await login({ email, password: 'whatever', ip: addresses[(w * 7 + i) % addresses.length] }, slow);
        flood.push(a.status);
      }
    };
    const bots = Array.from({ length: 40 }, (_, w) => bot(w));
    const owner: number[] = [];
    try {
      await until(() => flood.includes(503)); // the queue is full
      for (let i = 0; i < 3; i++) owner.push((await login({ ...ADMIN, ip: ownIp, cookie: laptop.cookie! }, slow)).status);
    } finally {
      running = false;
      await Promise.all(bots);
    }
    expect(owner).toEqual([200, 200, 200]);
    expect(flood.filter((x) => x === 503).length).toBeGreaterThan(0);
    expect(flood.every((x) => [401, 429, 503].includes(x))).toBe(true);
  }, 60_000);

  test('100 at once from one address: at most 30 reach the hash and the rest get 429 at once; a sign-in from another address meanwhile gets in', async () => {
    const floodIp = freshIp();
    const u = await newUser(slow);
    const statuses: number[] = [];
    const flood = Array.from({ length: 100 }, (_, i) =>
      login({ email: `one${i}@test.local`, password: 'whatever', ip: floodIp }, slow).then((a) => {
        statuses.push(a.status);
        return a;
      }),
    );
    await until(() => statuses.includes(503)); // the address's share of the queue is full
    const other = await login({ ...u }, slow);
    const answers = await Promise.all(flood);
    expect(other.status).toBe(200);
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    expect(count(429)).toBeGreaterThanOrEqual(70);
    expect(count(401) + count(503)).toBeLessThanOrEqual(30);
    expect(count(401) + count(503) + count(429)).toBe(100);
    // Refused ones counted: the address stays refused, even with a right password.
    expect((await login({ ...u, ip: floodIp }, slow)).status).toBe(429);
  }, 60_000);
});

describe('the hashing queue', () => {
  // One process-wide queue: these run while nothing else hashes (a flood's last sign-ins may still be hashing).
  beforeEach(() => waitFor(() => hashesInFlight() === 0, 'the hashing queue to drain', 60_000));
  const outcome = (check: Promise<boolean>) =>
    check.then(
      (ok) => (ok ? 'right' : 'wrong'),
      // The status the API answers the service's refusal with.
      (e: unknown) => statusOf(e),
    );

  test('one address cannot fill it: beyond its few places it gets 503 at once, and another address still gets a place', async () => {
    const stored = await hashPassword('the-password', 13);
    const fromOne = Array.from({ length: 30 }, () => outcome(verifyPassword('guess', stored, '198.51.100.1')));
    const fromOther = outcome(verifyPassword('the-password', stored, '198.51.100.2'));
    const one = await Promise.all(fromOne);
    expect(await fromOther).toBe('right');
    expect(one.filter((x) => x === 'wrong')).toHaveLength(MAX_RUNNING + MAX_WAITING_PER_ADDRESS);
    expect(one.filter((x) => x === 503)).toHaveLength(30 - MAX_RUNNING - MAX_WAITING_PER_ADDRESS);
  });

  test('trusted work (a known device, a signed-in user) waits only for the hashes already running, ahead of the anonymous queue', async () => {
    const stored = await hashPassword('the-password', 13);
    const done: string[] = [];
    const anonymous = Array.from({ length: 12 }, (_, i) =>
      verifyPassword('guess', stored, `198.51.100.${10 + i}`).then(() => done.push(`anonymous ${i}`)),
    );
    const trusted = verifyPassword('the-password', stored, null).then((ok) => done.push(`trusted ${ok}`));
    await Promise.all([...anonymous, trusted]);
    expect(done).toHaveLength(13);
    // It takes the first slot freed, third to start; in arrival order it would start, and end, last
    // (index 12). How many anonymous hashes the other slot finishes while it runs is the threads'
    // scheduling (CI saw two), so the test asks for the first half, not an exact place.
    expect(done.indexOf('trusted true')).toBeLessThan(done.length / 2);
  });
});
