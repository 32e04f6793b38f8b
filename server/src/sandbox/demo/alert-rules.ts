// Demo Alertas: on a store without rules, one rule of each kind with thresholds the demo data
// cross within minutes (its bad-traffic zones, its losing sandbox campaigns, its busiest referrer
// hosts, the site never seen before and the IP burst under the classifier's rate its live traffic
// opens with), created in the protected admin's name, so the bell and /alerts have something to show.
import type { CreateAlertRule } from '@adops/core';
import { CreateAlertRule as CreateRuleSchema } from '@adops/core';
import type { AppServices } from '../../services/index.js';

export const DEMO_ALERT_RULES: CreateAlertRule[] = [
  { name: 'Zonas con TQ bajo', kind: 'tq_low', params: { scope: 'zone', threshold: 0.3, hours: 24, min_impressions: 5000 } },
  { name: 'Caída de revenue por zona', kind: 'revenue_drop', params: { scope: 'zone', drop_percent: 50, hours: 24, min_revenue: 40 } },
  { name: 'Pico de un referrer', kind: 'referrer_burst', params: { visits: 40, minutes: 10 } },
  { name: 'Referrer nuevo con tráfico', kind: 'referrer_burst', params: { new_only: true, visits: 5, minutes: 10 } },
  { name: 'Una IP con muchas visitas', kind: 'ip_burst', params: { visits: 60, minutes: 10 } },
  { name: 'Campañas que pierden dinero', kind: 'campaign_roi', params: { level: 'campaign', metric: 'roi', threshold: 0, hours: 48, min_spend: 1 } },
];

export async function seedDemoAlertRules(s: AppServices): Promise<void> {
  if ((await s.store.alerts.rules.list()).length > 0) return;
  const admin = (await s.store.users.list()).find((u) => u.protected);
  if (!admin) return;
  for (const rule of DEMO_ALERT_RULES)
    await s.alerts.createRule({ id: admin.id, email: admin.email, is_admin: true }, CreateRuleSchema.parse({ ...rule, cooldown_minutes: 30 }));
}
