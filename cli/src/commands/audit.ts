// `adops audit`: the audit trail (admins only), newest first, under the server's filters; a
// paged table on a terminal, or the server's exports for scripts (--json, --csv).
import type { Command } from 'commander';
import {
  AUDIT_CSV,
  AUDIT_PAGE_SIZE,
  AUDIT_SORT_KEYS,
  auditActionLabel,
  auditActorLabel,
  auditChangeSummary,
  auditBound,
  routes,
  formatDateTimeDMY,
  type AuditEntry,
  type AuditQuery,
  type AuditTable,
} from '@adops/core/lite';
import type { Cli } from '../context.js';
import type { Column } from '../ui/Table.js';
import { pagingOf } from '../ui/paging.js';
import { zoneNote } from '../text.js';
import { addTableOptions, machineOutput, parseLimit, parseSortFlag, type ServerTable, type TableFlags } from './table-output.js';
import { pageFields, screenPageSize, showTable, sortOf } from './table-screen.js';

interface AuditFlags extends TableFlags {
  actor?: string;
  action?: string;
  targetKind?: string;
  target?: string;
  since?: string;
  until?: string;
  search?: string;
}

/** The audit table, each entry's instant on the reporting zone's clock (tz). */
export const auditColumns = (tz: string): Column<AuditEntry>[] => [
  { key: 'at', header: 'Fecha', format: (v) => formatDateTimeDMY(String(v), tz, { seconds: true }) },
  { key: 'actor_email', header: 'Quién', format: (_, e) => auditActorLabel(e), maxWidth: 28 },
  { key: 'ip', header: 'IP', format: (v) => (v ? String(v) : '-'), maxWidth: 15 },
  { key: 'action', header: 'Acción', format: (v) => auditActionLabel(String(v)), maxWidth: 34 },
  { key: 'target_label', header: 'Objeto', format: (v, e) => String(v ?? e.target_id ?? e.target_kind), maxWidth: 28 },
  { key: 'after', header: 'Cambio', format: (_, e) => auditChangeSummary(e) || '-', maxWidth: 60 },
];

export function registerAudit(program: Command, cli: Cli): void {
  const cmd = program
    .command('audit')
    .description('Registro de auditoría: cada cambio de un administrador o del sistema, el más reciente primero (solo administradores)')
    .option('--actor <quién>', 'id de usuario, system, ingest_key o parte del email')
    .option('--action <acción>', 'acción (user.create) o su prefijo (user)')
    .option('--target-kind <tipo>', 'tipo de objeto: user, session, publisher_token, publisher, zone_report, referrers, campaign')
    .option('--target <id>', 'id del objeto')
    .option('--since <fecha>', 'desde: un día (AAAA-MM-DD o dd/MM/aaaa, en la zona horaria de los informes) o un instante ISO 8601')
    .option('--until <fecha>', 'hasta: un día (el día entero, en la zona horaria de los informes) o un instante ISO 8601')
    .option('--search <texto>', 'texto libre: email, acción, objeto, IP o el antes/después');
  addTableOptions(cmd, { sortKeys: AUDIT_SORT_KEYS.join(', '), csvDefaultName: AUDIT_CSV.file }).action(
    async (flags: AuditFlags, command: Command) => {
      const sort = parseSortFlag(flags.sort, AUDIT_SORT_KEYS);
      const limit = parseLimit(flags.limit);
      // Days are the reporting zone's (confirmed with the server first), as the entries' times shown.
      const { api } = await cli.api(command, { zone: flags.since !== undefined || flags.until !== undefined });
      const filters: AuditQuery = {
        actor: flags.actor,
        action: flags.action,
        target_kind: flags.targetKind,
        target_id: flags.target,
        since: auditBound(flags.since, false, cli.tz),
        until: auditBound(flags.until, true, cli.tz),
        q: flags.search,
      };
      const table: ServerTable<AuditTable> = {
        page: (p) => api.audit.list({ ...filters, ...p }),
        open: (format, s, signal, csv) => api.open(routes.audit.list, { ...filters, sort: s, format, csv }, { signal }),
      };
      const done = await machineOutput(cli, flags, table, {
        sort,
        limit,
        csvName: () => AUDIT_CSV.file,
        head: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
      });
      if (done) return;
      const subtitle = [
        flags.actor && `quién: ${flags.actor}`,
        flags.action && `acción: ${flags.action}`,
        flags.targetKind && `tipo: ${flags.targetKind}`,
        flags.target && `objeto: ${flags.target}`,
        flags.since && `desde ${flags.since}`,
        flags.until && `hasta ${flags.until}`,
        flags.search && `«${flags.search}»`,
        zoneNote(cli.tz, true),
      ]
        .filter(Boolean)
        .join(' · ');
      await showTable<AuditEntry>(cli, {
        columns: flags.columns,
        query: { sort: sortOf(sort), page: 1, pageSize: screenPageSize(cli, limit, AUDIT_PAGE_SIZE), preset: null },
        sortKeys: AUDIT_SORT_KEYS,
        rowKey: (e) => e.id,
        load: async (q) => {
          const answer = await api.audit.list({ ...filters, ...pageFields(q) });
          return {
            title: 'Auditoría',
            subtitle,
            columns: auditColumns(cli.tz),
            rows: answer.rows,
            emptyText: 'No hay entradas de auditoría',
            paging: pagingOf(answer),
          };
        },
      });
    },
  );
}
