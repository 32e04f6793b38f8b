// The entity store on PostgreSQL, shared by every API instance: parameterised queries only,
// UNIQUE constraints instead of a serialised writer (a duplicate becomes StoreConflictError),
// transactions where a change reads before it writes, and versioned schema migrations applied
// once under an advisory lock (several instances may start at once).
import type { EntityStore } from '../types.js';
import { postgresAlertActions } from './alert-actions.js';
import { postgresAlertEvaluations } from './alert-evaluations.js';
import { postgresAlerts } from './alerts.js';
import { postgresAudit } from './audit.js';
import { postgresCampaigns } from './campaigns.js';
import { run } from './db.js';
import { migrate } from './migrations.js';
import { postgresPublishers } from './publishers.js';
import { postgresSessions } from './sessions.js';
import { postgresSettings } from './settings.js';
import { postgresTokens } from './tokens.js';
import { postgresTotp } from './totp.js';
import { postgresUsers } from './users.js';

export { MIGRATIONS, migrate } from './migrations.js';

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  maxConnections?: number;
  /** Where errors of idle connections are reported (the pool replaces them). */
  log?: (line: string) => void;
}

export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<EntityStore> {
  // Loaded here, not at the top: a server on lowdb never pays for the PostgreSQL driver.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, application_name: 'adops' });
  pool.on('error', (e) => options.log?.(`postgres: idle connection failed: ${e.message}`));
  try {
    await migrate(pool);
  } catch (e) {
    await pool.end();
    throw e;
  }
  const q = (sql: string, params?: unknown[]) => run(pool, sql, params);

  return {
    engine: 'postgres',
    users: postgresUsers(q, pool),
    tokens: postgresTokens(q),
    campaigns: postgresCampaigns(q),
    publishers: postgresPublishers(q),
    settings: postgresSettings(q, pool),
    sessions: postgresSessions(q),
    audit: postgresAudit(q),
    totp: postgresTotp(q),
    alerts: postgresAlerts(q),
    alertActions: postgresAlertActions(q),
    alertEvaluations: postgresAlertEvaluations(q),
    ping: async () => {
      await q('SELECT 1');
    },
    close: () => pool.end(),
  };
}
