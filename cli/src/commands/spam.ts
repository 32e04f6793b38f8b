// `adops spam list|add|remove`: the referrer-spam list bot classification reads (admins only) —
// the list shipped with the server (Matomo's) and the domains admins added or took out of it.
// A hit or batch event whose referrer or source is listed (or a subdomain of a listed domain)
// is stored flagged `spam_referrer` from then on.
import type { Command } from 'commander';
import { formatInt, type SpamList } from '@adops/core/lite';
import type { Cli } from '../context.js';

function describe(list: SpamList): string {
  const lines = [
    `Lista de spam de referrers: ${formatInt(list.total)} dominios (${formatInt(list.shipped)} de ${list.source})`,
    `Añadidos: ${list.added.length ? list.added.join(', ') : 'ninguno'}`,
    `Quitados: ${list.removed.length ? list.removed.join(', ') : 'ninguno'}`,
  ];
  return lines.join('\n');
}

export function registerSpam(program: Command, cli: Cli): void {
  const spam = program.command('spam').description('Lista de spam de referrers (solo administradores)');
  spam
    .command('list')
    .description('Muestra la lista: cuántos dominios, de dónde viene y los que añadieron o quitaron los administradores')
    .option('--json', 'salida JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const list = await api.referrers.spamList();
      if (cli.machine(opts.json)) return cli.json(list);
      cli.say(describe(list));
    });
  for (const [verb, field, text] of [
    ['add', 'add', 'Marca como spam estos dominios (y sus subdominios) desde ahora'],
    ['remove', 'remove', 'Deja de marcar estos dominios (uno de la lista incluida queda fuera de ella)'],
  ] as const)
    spam
      .command(`${verb} <domains...>`)
      .description(text)
      .option('--json', 'salida JSON')
      .action(async (domains: string[], opts: { json?: boolean }, cmd: Command) => {
        const { api } = await cli.api(cmd);
        const list = await api.referrers.updateSpamList({ [field]: domains });
        if (cli.machine(opts.json)) return cli.json(list);
        cli.say(describe(list));
      });
}
