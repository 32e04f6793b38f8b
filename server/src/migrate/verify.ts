// The last step of `adops migrate`: the same figures read back from both sides (counts, sums,
// states), each compared; with --force the target may hold more than the source.
import type {
  EntityStore,
  SessionRecord,
  TotpRecord,
  AuditRecord,
  CampaignRecord,
  PublisherRecord,
  TokenRecord,
  UserRecord,
} from '../store/types.js';
import type { AlertMuteRecord, AlertRecord } from '../store/alert-types.js';
import type { SpendMonth, Warehouse } from '../warehouse/types.js';
import { ALL_TIME, type AlertasSnapshot, allAlerts, digestsOn, flaggedEvents, sameSum, sessionsOf } from './read.js';

/** One compared figure: source and target, and whether they agree. */
export interface MigrationCheck {
  name: string;
  source: number;
  target: number;
  ok: boolean;
}

/** What was read from the source before copying: the figures the target is held to. */
export interface SourceFigures {
  src: { users: UserRecord[]; tokens: TokenRecord[]; campaigns: CampaignRecord[]; publishers: PublisherRecord[] };
  srcSessions: SessionRecord[];
  settingKeys: string[];
  secrets: Record<string, unknown> | undefined;
  srcTotp: TotpRecord[];
  srcAudit: AuditRecord[];
  srcAlerts: AlertasSnapshot;
  /** Users' mutes that were copied (of alerts still unresolved at the firing they were muted on). */
  liveMutes: AlertMuteRecord[];
  srcSpend: SpendMonth[];
  srcMaxId: number;
  srcEvents: number;
}

export async function verifyMigration(
  facts: Warehouse,
  target: EntityStore,
  warehouse: Warehouse,
  seen: SourceFigures,
  now: string,
  force: boolean,
): Promise<MigrationCheck[]> {
  const { src, srcSessions, settingKeys, secrets, srcTotp, srcAudit, srcAlerts, liveMutes, srcSpend, srcMaxId, srcEvents } = seen;
  const checks: MigrationCheck[] = [];
  const check = (name: string, sourceN: number, targetN: number, ok = force ? targetN >= sourceN : targetN === sourceN) =>
    checks.push({ name, source: sourceN, target: targetN, ok });
  const after = {
    users: await target.users.list(),
    tokens: await target.tokens.list(),
    campaigns: await target.campaigns.list(),
    publishers: await target.publishers.list(),
  };
  check('users', src.users.length, after.users.length);
  check(
    'sessions (open)',
    srcSessions.length,
    (
      await sessionsOf(
        target,
        after.users.map((u) => u.id),
        now,
      )
    ).length,
  );
  check('publisher tokens', src.tokens.length, after.tokens.length);
  check('campaigns', src.campaigns.length, after.campaigns.length);
  check('publishers', src.publishers.length, after.publishers.length);
  let settingsHere = 0;
  for (const key of [...settingKeys, ...(secrets ? ['secrets'] : [])]) if ((await target.settings.get(key)) !== undefined) settingsHere++;
  check('settings', settingKeys.length + (secrets ? 1 : 0), settingsHere);
  const enabled = (records: Iterable<{ enabled_at: string | null }>) => [...records].filter((t) => t.enabled_at !== null).length;
  check('two-factor sign-in (on)', enabled(srcTotp), enabled(await target.totp.list()));
  check('audit entries', srcAudit.length, (await target.audit.query({}, 'asc', 0, 1)).total);
  check('alert rules', srcAlerts.rules.length, (await target.alerts.rules.list()).length);
  for (const state of ['open', 'muted', 'resolved'] as const)
    check(`alerts (${state})`, srcAlerts.alerts.filter((a) => a.state === state).length, (await target.alerts.list({ state }, 0, 0)).total);
  const deliveries = (list: AlertRecord[]) => list.reduce((n, a) => n + (a.deliveries?.length ?? 0), 0);
  check('alert deliveries', deliveries(srcAlerts.alerts), deliveries(await allAlerts(target)));
  check('alert subscriptions', srcAlerts.subscriptions.length, (await target.alerts.subscriptions()).length);
  check("users' own alert mutes", liveMutes.length, (await target.alerts.mutes({})).length);
  const digestsAfter = await digestsOn(
    target,
    srcAlerts.digests.map((d) => d.date),
  );
  check('alert digest records', srcAlerts.digests.length, digestsAfter.size);
  check('profit-guard actions', srcAlerts.actions.length, (await target.alertActions.list({}, 0, 0)).total);
  check(
    'profit-guard actions per account and day',
    srcAlerts.actionDays.reduce((n, d) => n + d.used, 0),
    (await Promise.all(srcAlerts.actionDays.map((d) => target.alertActions.slotsUsed(d.account, d.day)))).reduce((n, u) => n + u, 0),
  );
  const [srcTotals, tgtTotals] = await Promise.all([facts.zoneReports.totals(ALL_TIME), warehouse.zoneReports.totals(ALL_TIME)]);
  const [srcRows, tgtRows] = await Promise.all([facts.zoneReports.countRows(), warehouse.zoneReports.countRows()]);
  check('zone_report rows', srcRows, tgtRows);
  for (const key of ['impressions', 'clicks'] as const) check(`zone_report Σ ${key}`, srcTotals[key], tgtTotals[key]);
  for (const key of ['revenue', 'p_revenue', 'margin'] as const) {
    const ok = force ? tgtTotals[key] >= srcTotals[key] - 1e-4 : sameSum(srcTotals[key], tgtTotals[key]);
    check(`zone_report Σ ${key}`, srcTotals[key], tgtTotals[key], ok);
  }
  check('referrer events', srcEvents, await warehouse.referrers.countEvents());
  check('referrer events: highest id', srcMaxId, await warehouse.referrers.maxEventId());
  check('referrer events flagged as bots', await flaggedEvents(facts), await flaggedEvents(warehouse));
  check(
    'referrer events attributed to Meta',
    await facts.referrers.countEvents({ attributed: true }),
    await warehouse.referrers.countEvents({ attributed: true }),
  );
  const spendTotals = (months: SpendMonth[]) => ({
    rows: months.reduce((n, m) => n + m.rows, 0),
    spend: months.reduce((n, m) => n + m.spend, 0),
    clicks: months.reduce((n, m) => n + m.clicks, 0),
  });
  const [spendSrc, spendTgt] = [spendTotals(srcSpend), spendTotals(await warehouse.spend.months())];
  check('ad_spend rows', spendSrc.rows, spendTgt.rows);
  check(
    'ad_spend Σ spend',
    spendSrc.spend,
    spendTgt.spend,
    force ? spendTgt.spend >= spendSrc.spend - 1e-4 : sameSum(spendSrc.spend, spendTgt.spend),
  );
  check('ad_spend Σ clicks', spendSrc.clicks, spendTgt.clicks);
  return checks;
}
