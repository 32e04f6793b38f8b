// `adops alerts explain RULE [--campaign ID] [--json]`: why each evaluation of a rule acted or not
// on each campaign, in Spanish, its figures as Rentabilidad shows them (core's formatters, the
// network's currency); one campaign's history with --campaign; the log's JSON with --json; the
// server's words for an unknown rule.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROFIT_METRICS, addDays, formatProfitFigure, type AlertEvaluationList } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { activeCampaigns, loadCampaignDays } from '../../server/test/campaign-history.js';
import type { SandboxAd } from '../../server/src/providers/meta/sandbox.js';
import { newConfigDir, runCli } from './helpers.js';

const DAY = new Date(Date.now() - 12 * 86_400_000).toISOString().slice(0, 10);
const AT = Date.parse(`${addDays(DAY, 1)}T12:00:00Z`);

let server: TestServer;
let dir: string;
let ruleId: string;
let lose: SandboxAd;
let ok: SandboxAd;
const tty = async (args: string[]) => {
  const r = await runCli(args, dir, server.url, { isTTY: true, columns: 200 });
  return { ...r, stdout: stripVTControlCharacters(r.stdout) };
};

beforeAll(async () => {
  server = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
  [lose, ok] = activeCampaigns(server, 2, new Set());
  await loadCampaignDays(server, [
    { ad: lose, day: DAY, spend: 50, revenue: 10 },
    { ad: ok, day: DAY, spend: 5, revenue: 10 },
  ]);
  const admin = await server.admin();
  const rule = await admin.alerts.createRule({
    name: 'Pierden dinero',
    kind: 'campaign_roi',
    params: { level: 'campaign', threshold: 0, hours: 36, min_spend: 1 },
    action: { mode: 'notify' },
  });
  ruleId = rule.id;
  await server.app.services.alerts.evaluate(AT);
  await server.app.services.alerts.evaluate(AT + 60_000);
});
afterAll(() => server?.close());

it('says for each campaign whether the rule acted and why, with its figures as Rentabilidad shows them', async () => {
  const r = await tty(['alerts', 'explain', ruleId]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('Regla «Pierden dinero»: ROI < 0 % en cualquier campaña');
  expect(r.stdout).toContain(`${lose.campaign_id}: Disparó — se cumplió la condición y avisó`);
  expect(r.stdout).toContain(`${ok.campaign_id}: No se cumple — se juzgó y no se cumple la condición`);
  // Money and ROI through core's formatters, in the network's currency.
  expect(r.stdout).toContain(`${PROFIT_METRICS.spend.label} ${formatProfitFigure('spend', 50, 'USD')}`);
  // In a line the figure carries its own %: 'ROI -80,00%', never 'ROI % -80,00%'.
  expect(r.stdout).toContain(`Beneficio ${formatProfitFigure('profit', -40, 'USD')} · ROI ${formatProfitFigure('roi', -80, 'USD')}`);
  expect(r.stdout).not.toContain('ROI % ');
  // The 'Por qué' sentence writes ROI as the figures do: one format on one screen.
  expect(r.stdout).toContain(
    `Por qué: Campaña ${lose.campaign_name} (${lose.campaign_id}): ROI ${formatProfitFigure('roi', -80, 'USD')} (umbral ${formatProfitFigure('roi', 0, 'USD')})`,
  );
  expect(r.stdout).toContain(`Guarda: Solo aviso: la regla pausaría la campaña ${lose.campaign_id} en Meta`);
  expect(r.stdout).toContain('2 evaluaciones seguidas');
  expect(r.stdout).toContain('Se guardan 30 días y como máximo 1.000 entradas por regla.');
});

it('--campaign shows that campaign only; --json the log as the API answers it', async () => {
  const one = await tty(['alerts', 'explain', ruleId, '--campaign', ok.campaign_id]);
  expect(one.code, one.stderr).toBe(0);
  expect(one.stdout).toContain(ok.campaign_id);
  expect(one.stdout).not.toContain(lose.campaign_id);
  const json = await runCli(['alerts', 'explain', ruleId, '--json'], dir, server.url);
  expect(json.code, json.stderr).toBe(0);
  const page = JSON.parse(json.stdout) as AlertEvaluationList;
  expect(page.rows.map((e) => [e.subject, e.outcome, e.evaluations])).toEqual([
    [lose.campaign_id, 'fired', 2],
    [ok.campaign_id, 'not_matched', 2],
  ]);
  expect(page.rows).toEqual((await (await server.admin()).alerts.evaluations({ id: ruleId, page_size: 500 })).rows);
});

it('an unknown rule is the server’s 404 in words', async () => {
  const r = await tty(['alerts', 'explain', 'no-existe']);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Regla no encontrada');
});

it('at 80 columns every line fits and breaks between words: joined up, each entry reads as at 200', async () => {
  const wide = await tty(['alerts', 'explain', ruleId]);
  const narrow = await runCli(['alerts', 'explain', ruleId], dir, server.url, { isTTY: true, columns: 80 });
  expect(narrow.code, narrow.stderr).toBe(0);
  const lines = stripVTControlCharacters(narrow.stdout).split('\n');
  expect(lines.every((l) => l.length <= 80)).toBe(true);
  // An entry's details keep their place under it, wrapped or not.
  for (const label of ['Cifras', 'Por qué', 'Guarda'])
    expect(
      lines.some((l) => l.startsWith(`  ${label}: `)),
      label,
    ).toBe(true);
  // Some line was longer than 80 at 200 columns, so wrapping was needed…
  expect(wide.stdout.split('\n').some((l) => l.length > 80)).toBe(true);
  // …and a wrapped line's continuation (indented deeper, not a label of its own) joins back into
  // its line word for word: read joined up, 80 columns say what a wide terminal says.
  const depth = (l: string) => l.length - l.trimStart().length;
  const joined = (text: string) => {
    const out: string[] = [];
    for (const l of text.split('\n')) {
      const prev = out.at(-1);
      const continues = prev !== undefined && l.trim() !== '' && depth(l) > depth(prev) && !/^ {2}(Cifras|Por qué|Guarda):|^ {2}\d/.test(l);
      if (continues) out[out.length - 1] = `${prev} ${l.trim()}`;
      else out.push(l);
    }
    return out.join('\n');
  };
  expect(joined(lines.join('\n'))).toBe(joined(wide.stdout));
});
