// `adops options`: the values the report filters take (advertisers, publishers, geos, sources,
// domains), as the server knows them — for any signed-in user, to type a filter right.
import type { Command } from 'commander';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import { filterOptions, LISTED } from './report-filters.js';

const TITLES = {
  advertiser: 'Advertisers (--advertiser)',
  publisher: 'Publishers (--publisher)',
  geo: 'Geos (--geo)',
  source: 'Sources (--source)',
  domain: 'Dominios (--domain)',
} as const;

export function registerOptions(program: Command, cli: Cli): void {
  program
    .command('options')
    .description('Lista los valores de los filtros: advertisers, publishers, geos, sources y dominios')
    .option('--json', 'salida JSON')
    .option(
      '--values <filtro>',
      `solo los valores de un filtro, uno por línea (${LISTED.map((l) => l.flag).join(', ')}): para scripts y el autocompletado`,
    )
    .addHelpText('after', '\nLos filtros aceptan estos valores sin distinguir mayúsculas ni tildes (--advertiser adnova = AdNova).')
    .action(async (flags: { json?: boolean; values?: string }, cmd: Command) => {
      const only = flags.values === undefined ? undefined : LISTED.find((l) => l.flag === flags.values)?.flag;
      if (flags.values !== undefined && !only)
        throw new CliError(`--values: ${flags.values} no es un filtro (filtros: ${LISTED.map((l) => l.flag).join(', ')})`, EXIT.usage);
      const { api } = await cli.api(cmd);
      if (only) {
        const values = (await filterOptions(api, [only]))[only];
        return void cli.io.stdout.write(values.map((v) => `${v}\n`).join(''));
      }
      const options = await filterOptions(api);
      if (cli.machine(flags.json)) {
        return cli.json({
          advertisers: options.advertiser,
          publishers: options.publisher,
          geos: options.geo,
          sources: options.source,
          domains: options.domain,
        });
      }
      const blocks = (Object.keys(TITLES) as Array<keyof typeof TITLES>).map(
        (key) => `${TITLES[key]}: ${options[key].length ? options[key].join(', ') : '(ninguno)'}`,
      );
      cli.say(blocks.join('\n'));
    });
}
