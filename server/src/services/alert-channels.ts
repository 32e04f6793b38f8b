// How an alert leaves the server: a webhook (JSON with a Slack-compatible `text`, signed with
// HMAC-SHA-256 over "timestamp.body", retried with exponential backoff on network errors, 429
// and 5xx) through undici, and an e-mail through nodemailer over ADOPS_SMTP_URL.
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import nodemailer from 'nodemailer';
import { request } from 'undici';
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
  timeoutMs: number;
}

export interface Delivery {
  ok: boolean;
  attempts: number;
  detail: string;
}

/** The webhook's JSON: Slack shows `text`; other receivers read `alert` (its figures as every JSON answer carries them). */
export function webhookBody(alert: Alert): string {
  return JSON.stringify({ text: alertText(alert), alert: jsonFigures(alert) });
}

/** POSTs the alert to `url`, signed with `secret`, retrying what may succeed later. */
export async function sendWebhook(url: string, secret: string, alert: Alert, options: WebhookOptions, now = Date.now): Promise<Delivery> {
  const body = webhookBody(alert);
  let detail = '';
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    if (attempt > 1) await sleep(options.backoffMs * 2 ** (attempt - 2));
    const timestamp = String(Math.floor(now() / 1000));
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
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      await res.body.dump();
      if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, attempts: attempt, detail: `HTTP ${res.statusCode}` };
      detail = `HTTP ${res.statusCode}`;
      // A refusal (4xx but 408/429) will not change by asking again.
      if (res.statusCode < 500 && res.statusCode !== 408 && res.statusCode !== 429) return { ok: false, attempts: attempt, detail };
    } catch (e) {
      detail = (e as Error).message;
    }
  }
  return { ok: false, attempts: options.attempts, detail };
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
  const transport = nodemailer.createTransport(smtpUrl);
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
