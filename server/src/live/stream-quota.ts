// Live streams (referrer log and alerts together) one user holds open on this instance
// (ADOPS_MAX_STREAMS): past the quota a new one is refused with 429, and a stream that ends, for
// whatever reason, gives its place back. Each instance counts its own streams.
import { DomainError } from '../domain-errors.js';

export class StreamQuota {
  private readonly open = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A place for one more stream of `owner` (429 when they hold the most); the answer gives it back, once. */
  take(owner: string): () => void {
    const held = this.open.get(owner) ?? 0;
    if (held >= this.max)
      throw new DomainError(
        'too_many',
        `Ya tienes ${held} conexiones en vivo abiertas, el máximo por usuario (ADOPS_MAX_STREAMS): cierra alguna (otra pestaña de Logs o de Alertas, un adops tail) para abrir otra.`,
      );
    this.open.set(owner, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.open.get(owner) ?? 1) - 1;
      if (left > 0) this.open.set(owner, left);
      else this.open.delete(owner);
    };
  }

  /** Streams `owner` holds open now. */
  held(owner: string): number {
    return this.open.get(owner) ?? 0;
  }
}
