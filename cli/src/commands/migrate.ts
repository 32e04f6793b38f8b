// `adops migrate`: copies an embedded data directory (lowdb + DuckDB) into PostgreSQL +
// ClickHouse in this process (the server package's migrateDataDir), then prints the comparison
// of counts and sums. The target comes from ADOPS_DATABASE_URL / ADOPS_CLICKHOUSE_* or options.
import path from 'node:path';
import type { Command } from 'commander';
import type { Config, MigrationResult } from '@adops/server';
import { CliError, EXIT } from '../io.js';
import type { Cli } from '../context.js';

interface MigrateOptions {
  data?: string;
  databaseUrl?: string;
  clickhouseUrl?: string;
  clickhouseDatabase?: string;
  clickhouseUser?: string;
  clickhousePassword?: string;
  force?: boolean;
  batch?: number;
  json?: boolean;
}

function parseBatch(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 1_000_000) throw new CliError(`Tamaño de lote no válido: ${value} (1–1000000)`, EXIT.usage);
  return n;
}

const figure = (n: number) =>
  Number.isInteger(n) ? n.toLocaleString('es-ES') : n.toLocaleString('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** The comparison as aligned text: one line per figure, source, target and whether they agree. */
export function comparisonText(result: MigrationResult): string {
  const rows = [['', 'origen', 'destino', ''], ...result.checks.map((c) => [c.name, figure(c.source), figure(c.target), c.ok ? 'ok' : 'DIFIERE'])];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2].padStart(widths[2])}  ${r[3]}`.trimEnd());
  const copied = Object.entries(result.copied)
    .map(([k, n]) => `${k} ${figure(n)}`)
    .join(', ');
  return [
    `Copiado en ${(result.ms / 1000).toFixed(1)} s: ${copied}`,
    '',
    ...lines,
    ...result.warnings.map((w) => `aviso: ${w}`),
    '',
    result.ok ? 'Verificación correcta: el destino tiene los mismos registros, filas y sumas.' : 'La verificación encontró diferencias.',
  ].join('\n');
}

export function registerMigrate(program: Command, cli: Cli): void {
  program
    .command('migrate')
    .description('Copia un directorio de datos embebido (lowdb + DuckDB) a PostgreSQL + ClickHouse y verifica recuentos y sumas')
    .option('--data <dir>', 'directorio de datos de origen (por defecto ADOPS_DATA_DIR o ./data); el servidor que lo usa debe estar parado')
    .option('--database-url <url>', 'PostgreSQL de destino (por defecto ADOPS_DATABASE_URL)')
    .option('--clickhouse-url <url>', 'ClickHouse de destino (por defecto ADOPS_CLICKHOUSE_URL)')
    .option('--clickhouse-database <name>', 'base de datos de ClickHouse (por defecto ADOPS_CLICKHOUSE_DATABASE o adops)')
    .option('--clickhouse-user <user>', 'usuario de ClickHouse (por defecto ADOPS_CLICKHOUSE_USER)')
    .option('--clickhouse-password <password>', 'contraseña de ClickHouse (mejor ADOPS_CLICKHOUSE_PASSWORD)')
    .option('--batch <n>', 'eventos de referrers por lote (por defecto 50000)', (v) => parseBatch(v))
    .option('--force', 'escribe aunque el destino tenga datos que el origen no tiene (añade, no borra)')
    .option('--json', 'resultado en JSON')
    .action(async (opts: MigrateOptions) => {
      const server = await import('@adops/server');
      const env = cli.io.env;
      const set = (name: string, value: string | undefined) => (value === undefined ? {} : { [name]: value });
      let config: Config;
      try {
        config = server.loadConfig({
          ...env,
          ADOPS_STORE: 'postgres',
          ADOPS_WAREHOUSE: 'clickhouse',
          ...set('ADOPS_DATA_DIR', opts.data),
          ...set('ADOPS_DATABASE_URL', opts.databaseUrl),
          ...set('ADOPS_CLICKHOUSE_URL', opts.clickhouseUrl),
          ...set('ADOPS_CLICKHOUSE_DATABASE', opts.clickhouseDatabase),
          ...set('ADOPS_CLICKHOUSE_USER', opts.clickhouseUser),
          ...set('ADOPS_CLICKHOUSE_PASSWORD', opts.clickhousePassword),
        });
      } catch (e) {
        if (e instanceof server.ConfigError) throw new CliError(`Error de configuración: ${e.message}`, EXIT.usage);
        throw e;
      }
      const progress = (line: string) => cli.io.stderr.write(`${line}\n`);
      progress(`Copiando ${path.resolve(config.dataDir)} a PostgreSQL y ClickHouse (${config.clickhouse!.database})…`);
      let result: MigrationResult;
      try {
        result = await server.migrateDataDir({
          dataDir: config.dataDir,
          databaseUrl: config.databaseUrl!,
          clickhouse: config.clickhouse!,
          force: opts.force,
          batchSize: opts.batch,
          log: progress,
        });
      } catch (e) {
        if (e instanceof server.MigrationRefused) throw new CliError(`El destino no está vacío: ${e.message}`);
        throw new CliError(`No se pudo migrar: ${(e as Error).message}`);
      }
      if (cli.machine(opts.json) && opts.json) cli.json(result);
      else cli.io.stdout.write(`${comparisonText(result)}\n`);
      if (!result.ok) throw new CliError('La verificación encontró diferencias entre origen y destino');
    });
}
