// The entity store on lowdb (data/adops.json), for one process: one writer, writes serialised
// and applied to a copy first, so a failing change never leaves half-written data in memory or
// on disk. Reads hand out copies, so callers never hold the store's own objects.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { openLowdbAudit } from './audit.js';
import { type AlertStoreData, lowdbAlerts } from './alerts.js';
import { type AlertActionStoreData, lowdbAlertActions } from './alert-actions.js';
import { openLowdbAlertEvaluations } from './alert-evaluations.js';
import { JsonFileData } from './file.js';
import {
  type CampaignRecord,
  type EntityStore,
  emailKey,
  type PublisherRecord,
  publisherKey,
  type SessionRecord,
  samePublisherName,
  StoreConflictError,
  type TokenRecord,
  type TotpRecord,
  type UserRecord,
} from '../types.js';

/** The file's shape (version 1; `sessions` was added later and starts empty in older files). */
export interface StoreData extends AlertStoreData, AlertActionStoreData {
  version: 1;
  users: UserRecord[];
  publisherTokens: TokenRecord[];
  campaigns: CampaignRecord[];
  publishers: PublisherRecord[];
  settings: Record<string, unknown>;
  sessions: SessionRecord[];
  /** Two-factor settings; absent until a first user enrols (files of earlier versions stay as they were). */
  totp?: TotpRecord[];
}

const empty = (): StoreData => ({
  version: 1,
  users: [],
  publisherTokens: [],
  campaigns: [],
  publishers: [],
  settings: {},
  sessions: [],
});

const copy = <T extends object>(record: T | undefined): T | undefined => (record ? { ...record } : undefined);
function tokenCopy(token: TokenRecord): TokenRecord;
function tokenCopy(token: TokenRecord | undefined): TokenRecord | undefined;
function tokenCopy(token: TokenRecord | undefined): TokenRecord | undefined {
  return token ? { ...token, allowed_ips: [...token.allowed_ips] } : undefined;
}

/**
 * Tokens written before tokens had ids and policies (files of earlier versions) gain an id, no
 * expiry, no allow-list, the default limit and a zero count; true when any had to.
 */
function upgradeTokens(tokens: TokenRecord[]): boolean {
  let changed = false;
  for (const t of tokens as Array<Partial<TokenRecord> & TokenRecord>) {
    if (
      typeof t.id === 'string' &&
      Array.isArray(t.allowed_ips) &&
      typeof t.request_count === 'number' &&
      t.expires_at !== undefined &&
      t.rate_limit !== undefined
    )
      continue;
    changed = true;
    t.id ??= randomUUID();
    t.expires_at ??= null;
    t.allowed_ips ??= [];
    t.rate_limit ??= null;
    t.request_count ??= 0;
  }
  return changed;
}

export async function openLowdbStore(dataDir: string): Promise<EntityStore> {
  await mkdir(dataDir, { recursive: true });
  const db = new Low<StoreData>(new JSONFile(path.join(dataDir, 'adops.json')), empty());
  await db.read();
  db.data = { ...empty(), ...(db.data ?? {}) };
  const file = new JsonFileData<StoreData>(db);
  if (upgradeTokens(db.data.publisherTokens)) await file.update(() => undefined);
  const audit = await openLowdbAudit(dataDir);
  const evaluations = await openLowdbAlertEvaluations(dataDir);
  const userByEmail = (users: readonly UserRecord[], email: string) => users.find((u) => emailKey(u.email) === emailKey(email));
  /** Drops the sessions `ends` picks (no write when there are none); how many. */
  const removeSessions = async (ends: (x: SessionRecord) => boolean): Promise<number> => {
    if (!file.data.sessions.some(ends)) return 0;
    return file.update((d) => {
      const before = d.sessions.length;
      d.sessions = d.sessions.filter((x) => !ends(x));
      return before - d.sessions.length;
    });
  };

  return {
    engine: 'lowdb',
    users: {
      byId: async (id) => copy(file.data.users.find((u) => u.id === id)),
      byEmail: async (email) => copy(userByEmail(file.data.users, email)),
      list: async () => file.data.users.map((u) => ({ ...u })),
      create: (user) =>
        file.update((d) => {
          if (userByEmail(d.users, user.email)) throw new StoreConflictError('email');
          if (d.users.some((u) => u.id === user.id)) throw new StoreConflictError('id');
          d.users.push({ ...user });
        }),
      update: (id, change) =>
        file.update((d) => {
          const user = d.users.find((u) => u.id === id);
          if (!user) return undefined;
          if (change.email !== undefined && emailKey(change.email) !== emailKey(user.email) && userByEmail(d.users, change.email))
            throw new StoreConflictError('email');
          for (const [k, v] of Object.entries(change)) if (v !== undefined) Object.assign(user, { [k]: v });
          return { ...user };
        }),
      remove: (id) =>
        file.update((d) => {
          const index = d.users.findIndex((u) => u.id === id);
          if (index >= 0) d.users.splice(index, 1);
          // The user's sessions go with them.
          d.sessions = d.sessions.filter((x) => x.user_id !== id);
          if (d.totp) d.totp = d.totp.filter((x) => x.user_id !== id);
          if (d.alertSubscriptions) d.alertSubscriptions = d.alertSubscriptions.filter((x) => x.user_id !== id);
          if (d.alertMutes) d.alertMutes = d.alertMutes.filter((x) => x.user_id !== id);
          return index >= 0;
        }),
      bootstrapAdmin: (admin) =>
        file.update((d) => {
          if (d.users.some((u) => u.protected)) return false;
          const existing = userByEmail(d.users, admin.email);
          if (existing) Object.assign(existing, { protected: true, is_admin: true, password_hash: admin.password_hash });
          else d.users.push({ ...admin, protected: true, is_admin: true });
          return true;
        }),
    },
    tokens: {
      list: async () => file.data.publisherTokens.map((t) => tokenCopy(t)),
      byHash: async (hash) => tokenCopy(file.data.publisherTokens.find((t) => t.token_hash === hash)),
      byId: async (id) => tokenCopy(file.data.publisherTokens.find((t) => t.id === id)),
      create: (token) =>
        file.update((d) => {
          if (d.publisherTokens.some((t) => samePublisherName(t.publisher_name, token.publisher_name)))
            throw new StoreConflictError('publisher_name');
          if (d.publisherTokens.some((t) => t.token_hash === token.token_hash)) throw new StoreConflictError('token_hash');
          if (d.publisherTokens.some((t) => t.id === token.id)) throw new StoreConflictError('id');
          d.publisherTokens.push(tokenCopy(token));
        }),
      replace: (publisherName, token) =>
        file.update((d) => {
          const index = d.publisherTokens.findIndex((t) => samePublisherName(t.publisher_name, publisherName));
          if (index < 0) return undefined;
          if (d.publisherTokens.some((t, i) => i !== index && t.token_hash === token.token_hash)) throw new StoreConflictError('token_hash');
          const { id, publisher_name, expires_at, allowed_ips, rate_limit } = d.publisherTokens[index];
          const stored = { ...tokenCopy(token), id, publisher_name, expires_at, allowed_ips, rate_limit };
          d.publisherTokens[index] = stored;
          return tokenCopy(stored);
        }),
      update: (id, change) => {
        if (!file.data.publisherTokens.some((t) => t.id === id)) return Promise.resolve(undefined);
        return file.update((d) => {
          const token = d.publisherTokens.find((t) => t.id === id);
          if (!token) return undefined;
          for (const [k, v] of Object.entries(change)) if (v !== undefined) Object.assign(token, { [k]: Array.isArray(v) ? [...v] : v });
          return tokenCopy(token);
        });
      },
      removeById: async (id) => {
        if (!file.data.publisherTokens.some((t) => t.id === id)) return false;
        return file.update((d) => {
          const index = d.publisherTokens.findIndex((t) => t.id === id);
          if (index >= 0) d.publisherTokens.splice(index, 1);
          return index >= 0;
        });
      },
      recordUse: async (id, requests, usedAt) => {
        if (!file.data.publisherTokens.some((t) => t.id === id)) return;
        await file.update((d) => {
          const token = d.publisherTokens.find((t) => t.id === id);
          if (!token) return;
          token.request_count += requests;
          if (!token.last_used_at || token.last_used_at < usedAt) token.last_used_at = usedAt;
        });
      },
    },
    campaigns: {
      list: async () => file.data.campaigns.map((c) => ({ ...c })),
      add: (campaign) =>
        file.update((d) => {
          if (d.campaigns.some((c) => c.campaign_id === campaign.campaign_id)) throw new StoreConflictError('campaign_id');
          d.campaigns.push({ ...campaign });
        }),
      usesImage: async (hash) => file.data.campaigns.some((c) => c.image_hash === hash),
    },
    publishers: {
      list: async () => file.data.publishers.map((p) => ({ ...p })),
      set: (name, revenueShare) =>
        file.update((d) => {
          const existing = d.publishers.find((p) => publisherKey(p.name) === publisherKey(name));
          if (existing) existing.revenue_share = revenueShare;
          else d.publishers.push({ name, revenue_share: revenueShare });
          return { name: existing?.name ?? name, revenue_share: revenueShare };
        }),
      addMissing: async (publishers) => {
        const known = new Set(file.data.publishers.map((p) => publisherKey(p.name)));
        if (publishers.every((p) => known.has(publisherKey(p.name)))) return;
        await file.update((d) => {
          const have = new Set(d.publishers.map((p) => publisherKey(p.name)));
          for (const p of publishers)
            if (!have.has(publisherKey(p.name))) {
              have.add(publisherKey(p.name));
              d.publishers.push({ name: p.name, revenue_share: p.revenue_share });
            }
        });
      },
    },
    settings: {
      get: async (key) => structuredClone(Object.hasOwn(file.data.settings, key) ? file.data.settings[key] : undefined),
      putIfAbsent: async <T>(key: string, value: T) => {
        const stored = Object.hasOwn(file.data.settings, key)
          ? file.data.settings[key]
          : await file.update((d) => {
              if (!Object.hasOwn(d.settings, key))
                Object.defineProperty(d.settings, key, { value: structuredClone(value), enumerable: true, writable: true, configurable: true });
              return d.settings[key];
            });
        return structuredClone(stored) as T;
      },
      update: async <T>(key: string, change: (current: T | undefined) => T) =>
        structuredClone(
          await file.update((d) => {
            const value = structuredClone(change(structuredClone(Object.hasOwn(d.settings, key) ? (d.settings[key] as T) : undefined)));
            Object.defineProperty(d.settings, key, { value, enumerable: true, writable: true, configurable: true });
            return value;
          }),
        ),
    },
    sessions: {
      create: (session) =>
        file.update((d) => {
          if (d.sessions.some((x) => x.id === session.id)) throw new StoreConflictError('id');
          d.sessions.push({ ...session });
        }),
      byId: async (id) => copy(file.data.sessions.find((x) => x.id === id)),
      listByUser: async (userId, now) =>
        file.data.sessions
          .filter((x) => x.user_id === userId && x.expires_at > now)
          .map((x) => ({ ...x }))
          .sort((a, b) => b.created_at.localeCompare(a.created_at)),
      touch: async (id, seenAt, ip) => {
        if (!file.data.sessions.some((x) => x.id === id)) return;
        await file.update((d) => {
          const session = d.sessions.find((x) => x.id === id);
          if (session) Object.assign(session, { last_seen_at: seenAt, ip });
        });
      },
      remove: async (id) => (await removeSessions((x) => x.id === id)) > 0,
      removeByUser: (userId, exceptId) => removeSessions((x) => x.user_id === userId && x.id !== exceptId),
      purgeExpired: (now) => removeSessions((x) => x.expires_at <= now),
    },
    audit: { append: (entry) => audit.append(entry), query: (filter, order, offset, limit) => audit.query(filter, order, offset, limit) },
    alerts: lowdbAlerts(file),
    alertActions: lowdbAlertActions(file),
    alertEvaluations: evaluations.repository,
    totp: {
      byUser: async (userId) => {
        const found = file.data.totp?.find((x) => x.user_id === userId);
        return found ? { ...found, recovery_hashes: [...found.recovery_hashes] } : undefined;
      },
      list: async () =>
        (file.data.totp ?? [])
          .map((x) => ({ ...x, recovery_hashes: [...x.recovery_hashes] }))
          .sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0)),
      begin: (userId, secretSealed, at) =>
        file.update((d) => {
          d.totp ??= [];
          const existing = d.totp.find((x) => x.user_id === userId);
          if (existing?.enabled_at) return false;
          const pending: TotpRecord = {
            user_id: userId,
            secret_sealed: secretSealed,
            created_at: at,
            enabled_at: null,
            last_step: null,
            recovery_hashes: [],
          };
          if (existing) Object.assign(existing, pending);
          else d.totp.push(pending);
          return true;
        }),
      enable: async (userId, secretSealed, step, recoveryHashes, at) => {
        const pending = (x: TotpRecord | undefined) => x !== undefined && !x.enabled_at && x.secret_sealed === secretSealed;
        if (!pending(file.data.totp?.find((x) => x.user_id === userId))) return false;
        return file.update((d) => {
          const record = d.totp?.find((x) => x.user_id === userId);
          if (!record || !pending(record)) return false;
          Object.assign(record, { enabled_at: at, last_step: step, recovery_hashes: [...recoveryHashes] });
          return true;
        });
      },
      acceptStep: async (userId, step) => {
        const fresh = (x: TotpRecord | undefined): x is TotpRecord => Boolean(x?.enabled_at) && (x!.last_step === null || x!.last_step < step);
        if (!fresh(file.data.totp?.find((x) => x.user_id === userId))) return false;
        return file.update((d) => {
          const record = d.totp?.find((x) => x.user_id === userId);
          if (!fresh(record)) return false;
          record.last_step = step;
          return true;
        });
      },
      useRecoveryCode: async (userId, hash) => {
        const holds = (x: TotpRecord | undefined): x is TotpRecord => Boolean(x?.enabled_at) && x!.recovery_hashes.includes(hash);
        if (!holds(file.data.totp?.find((x) => x.user_id === userId))) return false;
        return file.update((d) => {
          const record = d.totp?.find((x) => x.user_id === userId);
          if (!holds(record)) return false;
          record.recovery_hashes = record.recovery_hashes.filter((h) => h !== hash);
          return true;
        });
      },
      remove: async (userId) => {
        if (!file.data.totp?.some((x) => x.user_id === userId)) return false;
        return file.update((d) => {
          const before = d.totp?.length ?? 0;
          d.totp = (d.totp ?? []).filter((x) => x.user_id !== userId);
          return d.totp.length < before;
        });
      },
    },
    // The file is this process's own: it answers while the process runs.
    ping: async () => {},
    snapshot: () => file.snapshot(),
    close: async () => {
      await file.drain();
      await audit.drain();
      await evaluations.drain();
    },
  };
}
