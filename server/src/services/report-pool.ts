// Report queries per user (ADOPS_REPORT_QUERIES at once, ADOPS_REPORT_QUEUE waiting in arrival
// order, 429 with Retry-After beyond): one account's burst of heavy reports waits in its own
// line, so other users' screens and /api/health never queue behind it. Hand-written rather than
// p-limit: a streamed export holds its place until its last byte is sent (after the handler has
// returned), and a request whose client left gives its place in the line back. The Koa middleware
// that holds a place per heavy route is the HTTP layer's (http.ts: reportPoolMiddleware).
import { DomainError } from '../domain-errors.js';

interface Line {
  running: number;
  waiting: Array<() => void>;
}

/** Seconds a refused client is told to wait: about one heavy report's time. */
export const REPORT_RETRY_SECONDS = 2;

export class ReportPool {
  private readonly lines = new Map<string, Line>();

  constructor(
    readonly running: number,
    readonly queue: number,
  ) {}

  /** Reports of `owner` running and waiting now. */
  load(owner: string): { running: number; waiting: number } {
    const line = this.lines.get(owner);
    return { running: line?.running ?? 0, waiting: line?.waiting.length ?? 0 };
  }

  /**
   * A place to run one report of `owner`: at once, or in their line (429 when it is full); the
   * answer gives it back. `left` resolving first takes the request out of the line (its client went).
   */
  async acquire(owner: string, left?: Promise<void>): Promise<() => void> {
    let line = this.lines.get(owner);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(owner, line);
    }
    const own = line;
    if (own.running < this.running && own.waiting.length === 0) own.running++;
    else {
      if (own.waiting.length >= this.queue)
        throw new DomainError(
          'too_many',
          `Tienes demasiados informes en curso: ${this.running} a la vez y ${this.queue} en espera por usuario (ADOPS_REPORT_QUERIES, ADOPS_REPORT_QUEUE). Espera a que terminen y vuelve a intentarlo.`,
          { retryAfterSeconds: REPORT_RETRY_SECONDS },
        );
      let start = (): void => undefined;
      const started = new Promise<void>((resolve) => {
        start = resolve;
      });
      own.waiting.push(start);
      const gone = left?.then(() => 'gone' as const);
      if ((await Promise.race(gone ? [started, gone] : [started])) === 'gone') {
        const i = own.waiting.indexOf(start);
        if (i >= 0) own.waiting.splice(i, 1);
        else this.release(owner, own); // its turn had just come: hand it on
        this.forget(owner, own);
        throw new DomainError('client_closed', 'El cliente cerró la petición');
      }
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.release(owner, own);
    };
  }

  /** A finished report's place goes to the next in its owner's line (running stays counted), else is freed. */
  private release(owner: string, line: Line): void {
    const next = line.waiting.shift();
    if (next) next();
    else {
      line.running--;
      this.forget(owner, line);
    }
  }

  private forget(owner: string, line: Line): void {
    if (line.running === 0 && line.waiting.length === 0 && this.lines.get(owner) === line) this.lines.delete(owner);
  }
}
