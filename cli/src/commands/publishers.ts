// `adops publishers list|set`: publishers' revenue shares (admins only). The share is the part
// of revenue paid to the publisher; imports without p_revenue/margin derive them from it.
import type { Command } from 'commander';
import { formatPercent, type PublisherShare } from '@adops/core/lite';
import { CliError, EXIT } from '../io.js';
import type { Cli } from '../context.js';
import type { Column } from '../ui/Table.js';

const SHARE_COLUMNS: Column<PublisherShare>[] = [
  { key: 'name', header: 'Publisher' },
  { key: 'revenue_share', header: 'Revenue share', align: 'right', format: (v) => formatPercent((v as number) * 100, 1) },
  { key: 'configured', header: 'Configurado', format: (v) => (v ? 'sí' : 'no (por defecto)') },
];

/** '0.7', '0,7' or '70%' → 0.7. */
export function parseShare(text: string): number {
  const t = text.trim().replace(',', '.');
  const percent = t.endsWith('%');
  const n = Number(percent ? t.slice(0, -1) : t);
  if (t === '' || !Number.isFinite(n)) throw new CliError(`Revenue share no válido: ${text} (p. ej. 0.7 o 70%)`, EXIT.usage);
  return percent ? n / 100 : n;
}

export function registerPublishers(program: Command, cli: Cli): void {
  const publishers = program.command('publishers').description('Revenue share de los publishers (solo administradores)');

  publishers
    .command('list')
    .description('Lista los publishers con su revenue share (configurados y vistos en los datos)')
    .option('--json', 'salida JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const list = await api.publishers.list();
      if (cli.machine(opts.json)) return cli.json(list);
      await cli.table<PublisherShare>({ columns: SHARE_COLUMNS, rows: list, rowKey: (p) => p.name, emptyText: 'No hay publishers.' });
    });

  publishers
    .command('set')
    .description('Fija el revenue share de un publisher (se aplica a las importaciones siguientes)')
    .argument('<publisher>', 'nombre del publisher')
    .argument('<share>', 'parte del revenue para el publisher: 0.7, 0,7 o 70%')
    .option('--json', 'salida JSON')
    .action(async (name: string, share: string, opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const saved = await api.publishers.set({ name, revenue_share: parseShare(share) });
      if (cli.machine(opts.json)) return cli.json(saved);
      cli.say(`Revenue share de ${saved.name}: ${formatPercent(saved.revenue_share * 100, 1)}`);
    });
}
