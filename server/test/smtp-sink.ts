// A local SMTP sink (smtp-server) for a test file: every message nodemailer sends is kept with its
// envelope; recipients a test names are refused (550) so a failed send can be seen.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  url: string;
  mails: Mail[];
  /** Recipients refused with 550 (lower case). */
  refuse: Set<string>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: Mail[] = [];
  const refuse = new Set<string>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, done) {
      if (refuse.has(address.address.toLowerCase())) {
        const e = new Error('Buzón no disponible') as Error & { responseCode: number };
        e.responseCode = 550;
        return done(e);
      }
      done();
    },
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('latin1')));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        done();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const port = (smtp.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuse,
    close: () => new Promise<void>((r) => smtp.close(() => r())),
  };
}

/** The text of a message as sent (quoted-printable decoded, UTF-8). */
export const decoded = (raw: string) =>
  Buffer.from(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** The plain-text part of a message, decoded. */
export function textPart(raw: string): string {
  const part = /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)\r?\n--/i.exec(raw);
  if (!part) throw new Error('the message has no text/plain part');
  return decoded(part[1]).replace(/\r\n/g, '\n');
}
