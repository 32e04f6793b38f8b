// Health check: liveness for load balancers and the CLI's `serve` wait.
import { z } from 'zod';
import { route } from './route.js';

export const Health = z.object({
  status: z.literal('ok'),
  version: z.string(),
  time: z.string(),
  /** The provider's public web site (the login page links back to it). */
  public_site_url: z.string(),
  /** The reporting time zone (ADOPS_TZ): report dates and presets are calendar days in it. */
  tz: z.string(),
  /** The network's currency (ADOPS_CURRENCY, ISO 4217): every amount on every face is in it. */
  currency: z.string().optional(),
  /** The live bus (ADOPS_LIVE: memory or redis) and whether it answers. */
  live: z.object({ backend: z.enum(['memory', 'redis']), ok: z.boolean() }).optional(),
  /** The entity store (ADOPS_STORE: lowdb or postgres) and whether it answers. */
  store: z.object({ backend: z.enum(['lowdb', 'postgres']), ok: z.boolean() }).optional(),
  /** The warehouse (ADOPS_WAREHOUSE: duckdb or clickhouse) and whether it answers. */
  warehouse: z.object({ backend: z.string(), ok: z.boolean() }).optional(),
});
export type Health = z.infer<typeof Health>;

export const healthRoutes = {
  check: route({ method: 'GET', path: '/api/health', access: 'public', response: Health }),
};
