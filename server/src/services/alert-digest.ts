// The daily digest ('Resumen diario'): from ADOPS_DIGEST_HOUR on, in ADOPS_TZ, every user whose
// channels ask for it gets one e-mail — yesterday's Dashboard cards with their change against
// the day before (the report service's figures, core's formatting; marked partial when that day's
// zone report is), the zones and publishers
// whose revenue moved most, and the open alerts of their rules. Once a day per user whatever
// the number of instances: each send is claimed in the entity store first (a day and user
// record); a failed send is tried again, at most DIGEST_TRIES times, DIGEST_RETRY_MS apart.
import {
  DASHBOARD_CARDS,
  DeltaFilters,
  ReportFilters,
  addDays,
  alertText,
  formatDateDMY,
  formatMetric,
  formatMoney,
  formatPercent,
  isFiniteNumber,
  todayIn,
  type DailyDeltas,
  type DashboardSummary,
} from '@adops/core';
import type { Config } from '../config.js';
import type { AlertSubscriptionRecord, EntityStore } from '../store/types.js';
import { createMailer, type Mailer } from './alert-channels.js';
import { publicAlert } from './alert-views.js';
import type { ReportService, RevenueMover } from './reports.js';
import type { Completeness } from './completeness.js';

export const DIGEST_TRIES = 3;
export const DIGEST_RETRY_MS = 10 * 60_000;
/** Movers listed per kind (zones, publishers) and open alerts listed at most. */
export const DIGEST_MOVERS = 5;
export const DIGEST_ALERTS = 20;

export interface DigestMessage {
  subject: string;
  text: string;
  html: string;
}

/** What one run did: `due` once the day's hour has come; sends claimed and how they went. */
export interface DigestRun {
  date: string;
  due: boolean;
  sent: number;
  failed: number;
}

/** The figures every digest of a day shares. */
export interface DigestFigures {
  /** Yesterday (reporting time zone). */
  date: string;
  summary: DashboardSummary;
  deltas: DailyDeltas;
  zones: RevenueMover[];
  publishers: RevenueMover[];
  /** Yesterday's zone report is partial (imported as incomplete, or while the day ran): its cards are provisional. */
  partial: boolean;
}

/** What the digest says of yesterday's cards when its zone report is partial. */
export const PARTIAL_MARK = '(parcial)';

/** '▲ 12,50%', '▼ 3,00%' or '-': the Dashboard's delta cards in words. */
export function deltaText(value: number | null | undefined): string {
  if (!isFiniteNumber(value)) return '-';
  return `${value > 0 ? '▲' : '▼'} ${formatPercent(Math.abs(value))}`;
}

const moverLine = (m: RevenueMover, zone: boolean, currency: string): string =>
  `${zone ? `${m.name} (${m.publisher})` : m.name}: ${formatMoney(m.previous, currency)} → ${formatMoney(m.revenue, currency)} (${deltaText(m.change_percent)})`;

/** The digest's e-mail: plain text and the same in simple HTML, every amount in the network's `currency`. */
export function digestMessage(
  f: DigestFigures,
  open: { lines: string[]; total: number },
  tz: string,
  appUrl: string | null,
  currency: string,
): DigestMessage {
  const day = formatDateDMY(f.date);
  const cards = DASHBOARD_CARDS.map(
    ({ key, header }) =>
      `${header}: ${formatMetric(key, f.summary[key as keyof DashboardSummary], currency)}${f.partial ? ` ${PARTIAL_MARK}` : ''} (${deltaText(f.deltas[key as keyof DailyDeltas])} frente al día anterior)`,
  );
  if (f.partial) cards.unshift(`El informe de zonas de ayer es parcial: estas cifras cambiarán cuando llegue el informe final del ${day}.`);
  const movers = (title: string, rows: RevenueMover[], zone: boolean) => [
    title,
    ...(rows.length ? rows.map((m) => `  ${moverLine(m, zone, currency)}`) : ['  Sin cambios']),
  ];
  const sections: Array<{ title: string; lines: string[] }> = [
    { title: `Ayer, ${day} (${tz})${f.partial ? ` · informe parcial` : ''}`, lines: cards },
    {
      title: 'Mayores cambios de revenue frente al día anterior',
      lines: [...movers('Zonas:', f.zones, true), ...movers('Publishers:', f.publishers, false)],
    },
    {
      title: `Alertas abiertas (${open.total})`,
      lines:
        open.total === 0 ? ['Ninguna'] : [...open.lines, ...(open.total > open.lines.length ? [`… y ${open.total - open.lines.length} más`] : [])],
    },
  ];
  const footer = appUrl ? [`Ver en AdOps: ${appUrl}/alerts`] : [];
  const text = [...sections.flatMap((s) => [s.title, ...s.lines, '']), ...footer].join('\n');
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = [
    ...sections.map((s) => `<h3>${esc(s.title)}</h3><p>${s.lines.map(esc).join('<br>')}</p>`),
    ...footer.map((l) => `<p>${esc(l)}</p>`),
  ].join('\n');
  return { subject: `[AdOps] Resumen diario del ${day}`, text, html };
}

export class AlertDigest {
  private readonly now: () => number;
  private readonly mailer: Mailer | null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  /** Tells whether yesterday's zone report is partial (without it, none is). */
  private readonly completeness?: Pick<Completeness, 'isPartial'>;

  constructor(
    private readonly store: EntityStore,
    private readonly reports: Pick<ReportService, 'overview' | 'deltas' | 'movers'>,
    private readonly config: Pick<Config, 'tz' | 'alerts' | 'currency'>,
    private readonly log: (line: string) => void,
    options: { now?: () => number; completeness?: Pick<Completeness, 'isPartial'> } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.completeness = options.completeness;
    this.mailer = createMailer(config.alerts.smtpUrl, config.alerts.mailFrom);
  }

  /** Looks every minute whether the day's digests are due (off with the alerts' schedule, or without SMTP). */
  start(): void {
    if (this.config.alerts.everySeconds <= 0 || !this.mailer || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.run()
        .catch((e) => this.log(`alerts: daily digest failed: ${(e as Error).message}`))
        .finally(() => {
          this.running = null;
        });
    }, 60_000);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    this.mailer?.close();
  }

  /** Yesterday's cards, their change against the day before, and the top movers, from the report service. */
  async figures(today: string): Promise<DigestFigures> {
    const date = addDays(today, -1);
    const [overview, deltas, zones, publishers, partial] = await Promise.all([
      this.reports.overview(ReportFilters.parse({ start_date: date, end_date: date })),
      this.reports.deltas(DeltaFilters.parse({}), today),
      this.reports.movers(date, 'zone_id', DIGEST_MOVERS),
      this.reports.movers(date, 'publisher', DIGEST_MOVERS),
      this.completeness?.isPartial(date) ?? false,
    ]);
    return { date, summary: overview.summary, deltas, zones, publishers, partial };
  }

  /** The open alerts of the rules the user's channels name (every rule when none), but those the user muted, latest first. */
  private async openAlerts(sub: AlertSubscriptionRecord, now: number): Promise<{ lines: string[]; total: number }> {
    const viewer = { user_id: sub.user_id, at: new Date(now).toISOString() };
    const { rows, total } = await this.store.alerts.list({ state: 'open', rule_ids: sub.rule_ids, viewer }, 0, DIGEST_ALERTS);
    const rules = new Map((await this.store.alerts.rules.list()).map((r) => [r.id, r]));
    return { lines: rows.map((a) => alertText(publicAlert(a, rules.get(a.rule_id)))), total };
  }

  /** The digest of a user as it would be sent now (the same content a run sends). */
  async message(userId: string, now = this.now()): Promise<DigestMessage> {
    const sub = (await this.store.alerts.subscription(userId)) ?? { user_id: userId, rule_ids: null };
    const today = todayIn(this.config.tz, new Date(now));
    const [figures, open] = await Promise.all([this.figures(today), this.openAlerts(sub as AlertSubscriptionRecord, now)]);
    return digestMessage(figures, open, this.config.tz, this.config.alerts.appUrl, this.config.currency);
  }

  /**
   * Sends the day's digests that are due at `now` (the injected clock by default): from the
   * configured hour on, each subscribed user's once; nothing before the hour.
   */
  async run(now = this.now()): Promise<DigestRun> {
    const at = new Date(now);
    const today = todayIn(this.config.tz, at);
    const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: this.config.tz, hour: '2-digit', hourCycle: 'h23' }).format(at));
    const result: DigestRun = { date: today, due: hour >= this.config.alerts.digestHour, sent: 0, failed: 0 };
    if (!result.due || !this.mailer) return result;
    // Those sent (or being sent) today need no claim: the store is asked only about the rest.
    const done = new Set((await this.store.alerts.digests(today)).filter((d) => d.status !== 'failed').map((d) => d.user_id));
    const subscribers = (await this.store.alerts.subscriptions()).filter((s) => s.digest && !done.has(s.user_id));
    let figures: Promise<DigestFigures> | undefined;
    for (const sub of subscribers) {
      const user = await this.store.users.byId(sub.user_id);
      if (!user) continue;
      const claimed = await this.store.alerts.claimDigest(
        today,
        sub.user_id,
        at.toISOString(),
        new Date(now - DIGEST_RETRY_MS).toISOString(),
        DIGEST_TRIES,
      );
      if (!claimed) continue;
      let ok = false;
      let detail: string;
      try {
        figures ??= this.figures(today);
        const message = digestMessage(
          await figures,
          await this.openAlerts(sub, now),
          this.config.tz,
          this.config.alerts.appUrl,
          this.config.currency,
        );
        const delivery = await this.mailer.sendMail(user.email, message);
        ok = delivery.ok;
        detail = delivery.detail;
      } catch (e) {
        detail = (e as Error).message;
      }
      if (ok) result.sent++;
      else {
        result.failed++;
        this.log(`alerts: daily digest to user ${sub.user_id} failed: ${detail}`);
      }
      await this.store.alerts.finishDigest(today, sub.user_id, ok ? 'sent' : 'failed', detail.slice(0, 500), new Date(this.now()).toISOString());
    }
    return result;
  }
}
