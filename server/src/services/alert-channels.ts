// How an alert leaves the server: a webhook (JSON with a Slack-compatible `text` whose markup is
// escaped, signed with HMAC-SHA-256 over "timestamp.body", retried with exponential backoff on
// network errors, 429 and 5xx, each try bounded in time, never to a refused address and never
// following a redirect) through undici, and an e-mail through nodemailer over ADOPS_SMTP_URL.
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import nodemailer from 'nodemailer';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher, request } from 'undici';
import { bare, isLocalhost, type ResolvedAddress, type Resolve, refusal, WebhookAddressError, type WebhookPolicy } from './webhook-address.js';
import { ALERT_KIND_LABELS, ALERT_STATE_LABELS, alertText, jsonFigures, type Alert } from '@adops/core';

export const SIGNATURE_HEADER = 'x-adops-signature';
export const TIMESTAMP_HEADER = 'x-adops-timestamp';

/** 'sha256=<hex>' of HMAC-SHA-256(secret, `${timestamp}.${body}`): what a receiver recomputes. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface WebhookOptions {
  /** Tries in all (the first included). */
  attempts: number;
  /** Wait before the 2nd try; doubled before each next one. */
  backoffMs: number;
  /** One try, from connecting to the end of the answer. */
  timeoutMs: number;
  /** How the requests connect (webhook-address.ts: refused addresses, connect timeout). */
  dispatcher?: Dispatcher;
  /** Stops the tries (the server is closing). */
  signal?: AbortSignal;
}

export interface Delivery {
  ok: boolean;
  attempts: number;
  detail: string;
}

/**
 * Text as Slack (and Teams, which reads the same entities) shows it, never as markup: `&`, `<`
 * and `>` escaped, so a rule name or subject cannot mention `<!channel>` or hide a link in
 * `<https://…|…>`. Teams also reads Markdown, where `[abre el informe](https://…)` is a link
 * under innocent words and `![](https://…)` an image fetched from anywhere: a zero-width space
 * between `]` and `(` leaves the text as it reads and the syntax broken (Slack ignores both).
 */
export function escapeChatMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\]\(/g, ']\u200B(');
}

/** The webhook's JSON: Slack shows `text` (escaped); other receivers read `alert` (as stored, its figures as every JSON answer carries them). */
export function webhookBody(alert: Alert): string {
  return JSON.stringify({ text: escapeChatMarkup(alertText(alert)), alert: jsonFigures(alert) });
}

/**
 * An undici dispatcher that connects only where `policy` lets a webhook go: an IP host is
 * judged before connecting, a name by its own lookup (every address it resolves to must pass),
 * and a connection must open within `connectTimeoutMs`. Redirects are never followed (undici's
 * `request` does not), so a 3xx cannot lead the server elsewhere.
 */
export function webhookDispatcher(policy: WebhookPolicy, resolve: Resolve, connectTimeoutMs: number): Agent {
  const lookup: LookupFunction = (hostname, options, callback) => {
    const done = callback as (err: Error | null, address?: string | ResolvedAddress[], family?: number) => void;
    if (isLocalhost(hostname) && !policy.allowsHost(hostname)) return callback(new WebhookAddressError(refusal(policy, hostname, '127.0.0.1')!), '');
    resolve(hostname).then(
      (all) => {
        const allowed = policy.allowsHost(hostname);
        for (const a of allowed ? [] : all) {
          const refused = refusal(policy, hostname, a.address);
          if (refused) return done(new WebhookAddressError(refused));
        }
        const family = typeof options === 'object' ? options.family : undefined;
        const fit = all.filter((a) => !family || family === 0 || a.family === family || (family as unknown) === `IPv${a.family}`);
        if (fit.length === 0) return done(Object.assign(new Error(`No se encuentra la dirección de ${hostname}`), { code: 'ENOTFOUND' }));
        if (typeof options === 'object' && options.all) return done(null, fit);
        done(null, fit[0].address, fit[0].family);
      },
      (e: Error) => done(e),
    );
  };
  const connector = buildConnector({ timeout: connectTimeoutMs, lookup } as buildConnector.BuildOptions);
  return new Agent({
    connect: (options, callback) => {
      const host = options.hostname;
      if (isIP(bare(host)) && !policy.allowsHost(host)) {
        const refused = refusal(policy, host, host);
        if (refused) return callback(new WebhookAddressError(refused), null);
      }
      connector(options, callback);
    },
  });
}

const STOPPED = 'El servidor se detuvo antes de entregarlo';

/** POSTs the alert to `url`, signed with `secret`, retrying what may succeed later. */
export async function sendWebhook(url: string, secret: string, alert: Alert, options: WebhookOptions, now = Date.now): Promise<Delivery> {
  const body = webhookBody(alert);
  let detail = '';
  let tried = 0;
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    if (attempt > 1) await sleep(options.backoffMs * 2 ** (attempt - 2), undefined, { signal: options.signal }).catch(() => undefined);
    if (options.signal?.aborted) return { ok: false, attempts: tried, detail: tried ? `${detail}; ${STOPPED.toLowerCase()}` : STOPPED };
    tried = attempt;
    const timestamp = String(Math.floor(now() / 1000));
    const limit = AbortSignal.timeout(options.timeoutMs);
    try {
      const res = await request(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'AdOps-Alertas/1',
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body),
        },
        dispatcher: options.dispatcher,
        signal: options.signal ? AbortSignal.any([limit, options.signal]) : limit,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      await res.body.dump({ limit: 64 * 1024 });
      if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, attempts: attempt, detail: `HTTP ${res.statusCode}` };
      detail = `HTTP ${res.statusCode}`;
      // A redirect is not followed (it could lead inside the network): the address must be the final one.
      if (res.statusCode >= 300 && res.statusCode < 400)
        return { ok: false, attempts: attempt, detail: `${detail}: las redirecciones no se siguen; usa la dirección final` };
      // A refusal (4xx but 408/429) will not change by asking again.
      if (res.statusCode < 500 && res.statusCode !== 408 && res.statusCode !== 429) return { ok: false, attempts: attempt, detail };
    } catch (e) {
      const error = (e as Error & { cause?: unknown }).cause instanceof WebhookAddressError ? ((e as Error).cause as Error) : (e as Error);
      // A refused address stays refused.
      if (error instanceof WebhookAddressError) return { ok: false, attempts: attempt, detail: error.message };
      detail = limit.aborted ? `Sin respuesta en ${(options.timeoutMs / 1000).toLocaleString('es-ES')} s` : error.message;
    }
  }
  return { ok: false, attempts: tried, detail };
}

export interface Mailer {
  send(to: string, alert: Alert, appUrl: string | null): Promise<Delivery>;
  /** Any message (the daily digest): subject, plain text and HTML. */
  sendMail(to: string, message: { subject: string; text: string; html: string }): Promise<Delivery>;
  close(): void;
}

/** The alert's e-mail: subject, plain text and the same in simple HTML. */
export function alertEmail(alert: Alert, appUrl: string | null): { subject: string; text: string; html: string } {
  const subject = `[AdOps] ${ALERT_KIND_LABELS[alert.kind]}: ${alert.subject}`;
  const lines = [
    alertText(alert),
    '',
    `Estado: ${ALERT_STATE_LABELS[alert.state]}`,
    `Regla: ${alert.rule_name}`,
    `Disparada: ${alert.fired_at}`,
    ...Object.entries(alert.figures).map(([k, v]) => `${k}: ${v ?? '-'}`),
    ...(appUrl ? ['', `Ver en AdOps: ${appUrl}/alerts`] : []),
  ];
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<p>${lines.map(esc).join('<br>')}</p>`;
  return { subject, text: lines.join('\n'), html };
}

/** A mailer on ADOPS_SMTP_URL (smtp:// or smtps://, credentials in the URL), or none. */
export function createMailer(smtpUrl: string | undefined, from: string): Mailer | null {
  if (!smtpUrl) return null;
  // Bounded waits: a mail server that never answers cannot hold notices (or the server's shutdown) for minutes.
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  const sendMail: Mailer['sendMail'] = async (to, { subject, text, html }) => {
    try {
      const info = await transport.sendMail({ from, to, subject, text, html });
      return { ok: true, attempts: 1, detail: String(info.response ?? 'enviado') };
    } catch (e) {
      return { ok: false, attempts: 1, detail: (e as Error).message };
    }
  };
  return {
    send: (to, alert, appUrl) => sendMail(to, alertEmail(alert, appUrl)),
    sendMail,
    close: () => transport.close(),
  };
}
