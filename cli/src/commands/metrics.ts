// `adops metrics`: what every figure means — each metric's header, full name and definition as
// core's registries give them (the same words as the web's tooltips). Needs no server.
import type { Command } from 'commander';
import { metricGlossary, type GlossaryEntry } from '@adops/core/lite';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';

const AREAS: Record<string, GlossaryEntry['area']> = { informes: 'Informes', rentabilidad: 'Rentabilidad', referrers: 'Referrers' };
const UNITS: Record<GlossaryEntry['kind'], string> = { text: 'texto', int: 'recuento', money: 'dinero', percent: '%', ratio: 'número' };

/** Words of `text` in lines of at most `width` characters, each after `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

export function registerMetrics(program: Command, cli: Cli): void {
  program
    .command('metrics')
    .description('Qué es cada cifra: nombre, definición y decimales de cada métrica (las de la web)')
    .option('--area <área>', 'solo un área: informes, rentabilidad o referrers')
    .option('--json', 'salida JSON')
    .action((flags: { area?: string; json?: boolean }) => {
      const wanted = flags.area === undefined ? undefined : AREAS[flags.area.trim().toLowerCase()];
      if (flags.area !== undefined && !wanted)
        throw new CliError(`Área desconocida: ${flags.area}. Usa informes, rentabilidad o referrers.`, EXIT.usage);
      const entries = metricGlossary().filter((e) => !wanted || e.area === wanted);
      if (cli.machine(flags.json)) return cli.json(entries);
      const width = Math.max(40, cli.io.stdout.columns ?? 80);
      const blocks: string[] = [];
      for (const area of new Set(entries.map((e) => e.area))) {
        blocks.push(area);
        for (const e of entries.filter((x) => x.area === area)) {
          const unit =
            e.kind === 'money' || e.kind === 'percent' || e.kind === 'ratio'
              ? `${UNITS[e.kind]}, ${e.decimals} ${e.decimals === 1 ? 'decimal' : 'decimales'}`
              : UNITS[e.kind];
          blocks.push(wrap(`${e.label} — ${e.name} (${e.key}; ${unit})`, width, '  '), wrap(e.definition, width, '      '));
        }
        blocks.push('');
      }
      cli.say(blocks.join('\n').trimEnd());
    });
}
