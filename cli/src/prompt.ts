// Questions to the person at the terminal: visible answers, secrets typed without any echo
// (raw mode; Ctrl-C cancels), yes/no confirmations. When stdin is not a terminal the
// answers are read line by line from it, so scripts and tests can pipe them in.
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { CliError, EXIT, type CliIO } from './io.js';

/** Successive lines of a piped stream; leftover input is kept for the next question. */
class LineReader {
  private buffer = '';
  private ended = false;
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly stream: Readable) {}

  async next(): Promise<string | null> {
    for (;;) {
      const nl = this.buffer.indexOf('\n');
      if (nl >= 0) {
        const line = this.buffer.slice(0, nl).replace(/\r$/, '');
        this.buffer = this.buffer.slice(nl + 1);
        return line;
      }
      if (this.ended || this.stream.readableEnded || this.stream.destroyed) {
        this.ended = true;
        const rest = this.buffer + this.decoder.end();
        this.buffer = '';
        return rest ? rest.replace(/\r$/, '') : null;
      }
      await this.more();
    }
  }

  private more(): Promise<void> {
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        this.stream.off('data', onData);
        this.stream.off('end', onEnd);
        this.stream.off('error', onError);
        this.stream.pause();
      };
      const onData = (chunk: Buffer | string) => {
        this.buffer += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
        cleanup();
        resolve();
      };
      const onEnd = () => {
        this.ended = true;
        cleanup();
        resolve();
      };
      const onError = (e: Error) => {
        cleanup();
        reject(e);
      };
      this.stream.on('data', onData);
      this.stream.once('end', onEnd);
      this.stream.once('error', onError);
      this.stream.resume();
    });
  }
}

const cancelled = () => new CliError('Cancelado', EXIT.cancelled);

/** Reads a secret in raw mode: nothing is echoed, Backspace and Ctrl-U edit, Ctrl-C/Ctrl-D cancel. */
function readSecretRaw(io: CliIO, label: string): Promise<string> {
  const stdin = io.stdin;
  io.stderr.write(label);
  stdin.setRawMode!(true);
  const decoder = new StringDecoder('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (settle: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode!(false);
      stdin.pause();
      io.stderr.write('\n');
      settle();
    };
    const onData = (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      for (let i = 0; i < text.length; i++) {
        const ch = text[i];
        if (ch === '\r' || ch === '\n') return finish(() => resolve(value));
        if (ch === '\u0003' || (ch === '\u0004' && value === '')) return finish(() => reject(cancelled()));
        if (ch === '\u007f' || ch === '\b') value = Array.from(value).slice(0, -1).join('');
        else if (ch === '\u0015') value = '';
        else if (ch === '\u001b') {
          // An escape sequence (arrow keys, bracketed paste markers): skip it whole.
          if (text[i + 1] === '[' || text[i + 1] === 'O') {
            i += 2;
            while (i < text.length && !/[@-~]/.test(text[i])) i++;
          }
        } else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
    stdin.resume();
  });
}

/** A visible question at the terminal (line editing by readline). */
function askVisible(io: CliIO, label: string): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  return new Promise((resolve, reject) => {
    let answered = false;
    rl.once('SIGINT', () => {
      io.stderr.write('\n');
      rl.close();
    });
    rl.once('close', () => {
      if (!answered) reject(cancelled());
    });
    rl.question(label, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}

export class Prompter {
  private lines: LineReader | null = null;

  constructor(private readonly io: CliIO) {}

  /** Someone is typing at a terminal (otherwise answers come from piped lines). */
  get interactive(): boolean {
    return Boolean(this.io.stdin.isTTY && typeof this.io.stdin.setRawMode === 'function');
  }

  private async pipedLine(what: string): Promise<string> {
    this.lines ??= new LineReader(this.io.stdin);
    const line = await this.lines.next();
    if (line === null) throw new CliError(`Falta ${what} en la entrada estándar`, EXIT.usage);
    return line;
  }

  /** A visible answer; `what` names it in errors ("el email"). */
  async ask(label: string, what: string): Promise<string> {
    return this.interactive ? askVisible(this.io, label) : this.pipedLine(what);
  }

  /** A secret: never echoed at a terminal; the next piped line otherwise. */
  async secret(label: string, what: string): Promise<string> {
    return this.interactive ? readSecretRaw(this.io, label) : this.pipedLine(what);
  }

  /** A new password: typed twice at a terminal (must match), one piped line otherwise. */
  async newPassword(label: string, what: string): Promise<string> {
    const first = await this.secret(label, what);
    if (!this.interactive) return first;
    const again = await this.secret('Repite la contraseña: ', what);
    if (again !== first) throw new CliError('Las contraseñas no coinciden');
    return first;
  }

  /**
   * Before a destructive command asks the server anything: without --yes and without a
   * terminal there is nobody to confirm it, a usage error (exit 2) that names --yes.
   */
  needsYes(yes: boolean | undefined): void {
    if (!yes && !this.interactive) throw new CliError('Confirma con --yes (la entrada no es una terminal)', EXIT.usage);
  }

  /** Yes/no at a terminal (default no). Without a terminal there is nobody to ask: --yes is required. */
  async confirm(question: string): Promise<boolean> {
    this.needsYes(false);
    const answer = (await askVisible(this.io, `${question} [s/N] `)).trim().toLowerCase();
    return ['s', 'si', 'sí', 'y', 'yes'].includes(answer);
  }
}
