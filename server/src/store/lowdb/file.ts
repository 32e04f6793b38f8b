// A lowdb JSON file and its one serialised writer: every change is applied to a copy first and
// persisted atomically, so a failing change never leaves half-written data in memory or on disk.
import type { Low } from 'lowdb';

/** A JSON file and its one serialised writer (adops.json, and the evaluation log beside it). */
export class JsonFileData<D> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: Low<D>) {}

  /** The current data; read-only, changed only through `update`. */
  get data(): Readonly<D> {
    return this.db.data;
  }

  /**
   * Applies `change` to a copy of the data, persists it atomically, then makes it current.
   * Changes run one at a time in call order; a change that throws leaves everything as it was.
   */
  update<T>(change: (draft: D) => T): Promise<T> {
    const run = this.queue.then(async () => {
      const draft = structuredClone(this.db.data);
      const result = change(draft);
      const previous = this.db.data;
      this.db.data = draft;
      try {
        await this.db.write();
      } catch (e) {
        this.db.data = previous;
        throw e;
      }
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves when every change called so far has been written (or failed). */
  async drain(): Promise<void> {
    await this.queue;
  }

  /** A copy of the whole data once every change called so far is written: one moment's state (backups). */
  snapshot(): Promise<D> {
    return this.queue.then(() => structuredClone(this.db.data));
  }
}
