// The entity store (lowdb, data/adops.json): one writer, writes serialised and applied to a
// copy first, so a failing change never leaves half-written data in memory or on disk.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';

export interface UserRecord {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  is_admin: boolean;
  protected: boolean;
  created_at: string;
  /** Sessions issued before this instant are refused (set when the password changes). */
  password_changed_at?: string;
}

export interface TokenRecord {
  publisher_name: string;
  token_sealed: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
}

export interface CampaignRecord {
  campaign_id: string;
  adset_id: string;
  ad_id: string;
  creative_id: string;
  image_hash: string;
  keyword: string;
  headline: string;
  body: string;
  objective: string;
  daily_budget: number;
  bid_amount: number;
  tracking_url: string;
  created_by: string;
  created_at: string;
}

export interface PublisherRecord {
  name: string;
  /** Share of revenue paid to the publisher, 0..1 (rate_applied). */
  revenue_share: number;
}

export interface StoreData {
  version: 1;
  users: UserRecord[];
  publisherTokens: TokenRecord[];
  campaigns: CampaignRecord[];
  publishers: PublisherRecord[];
  settings: Record<string, unknown>;
}

const empty = (): StoreData => ({
  version: 1,
  users: [],
  publisherTokens: [],
  campaigns: [],
  publishers: [],
  settings: {},
});

export class Store {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly db: Low<StoreData>) {}

  static async open(dataDir: string): Promise<Store> {
    await mkdir(dataDir, { recursive: true });
    const db = new Low<StoreData>(new JSONFile(path.join(dataDir, 'adops.json')), empty());
    await db.read();
    db.data = { ...empty(), ...(db.data ?? {}) };
    return new Store(db);
  }

  /** The current data; treat as read-only, change it only through `update`. */
  get data(): Readonly<StoreData> {
    return this.db.data;
  }

  /**
   * Applies `change` to a copy of the data, persists it atomically, then makes it current.
   * Changes run one at a time in call order; a change that throws leaves everything as it was.
   */
  update<T>(change: (draft: StoreData) => T | Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      const draft = structuredClone(this.db.data);
      const result = await change(draft);
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
}
