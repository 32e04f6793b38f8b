// The help in Spanish: commander's own words (titles, usage placeholders, its error messages)
// translated, and examples under the commands people run most.
import type { Command } from 'commander';

const TITLES: Record<string, string> = {
  'Usage:': 'Uso:',
  'Options:': 'Opciones:',
  'Commands:': 'Comandos:',
  'Global Options:': 'Opciones globales:',
  'Arguments:': 'Argumentos:',
};

/** '[options]' → '[opciones]', '[command]' → '[comando]' in usage lines and command terms. */
export const spanishTerms = (text: string): string => text.replace(/\[options\]/g, '[opciones]').replace(/\[command\]/g, '[comando]');

/** Commander's error messages in Spanish (the rest of its words are already ours). */
const ERRORS: ReadonlyArray<[RegExp, string]> = [
  [/^error: unknown option '(.+?)'(?:\n\(Did you mean (.+?)\?\))?/, "error: opción desconocida '$1'"],
  [/^error: unknown command '(.+?)'/, "error: comando desconocido '$1'"],
  [/^error: missing required argument '(.+?)'/, "error: falta el argumento obligatorio '$1'"],
  [/^error: option '(.+?)' argument missing/, "error: a la opción '$1' le falta su valor"],
  [
    /^error: too many arguments(?: for '(.+?)')?\. Expected (\d+) arguments? but got (\d+)\./,
    'error: demasiados argumentos (se esperaban $2, llegaron $3)',
  ],
  [/^error: required option '(.+?)' not specified/, "error: falta la opción obligatoria '$1'"],
];

export function spanishError(text: string): string {
  for (const [pattern, replacement] of ERRORS) {
    const m = pattern.exec(text);
    if (!m) continue;
    let out = text.replace(pattern, replacement);
    // commander's "(Did you mean --x?)" suggestion, kept in Spanish.
    if (m[2] && pattern === ERRORS[0][0]) out = out.replace(/^(error: opción desconocida '.+?')/, `$1\n(¿quisiste decir ${m[2]}?)`);
    return out.replace(/\n\(Did you mean (.+?)\?\)/, '\n(¿quisiste decir $1?)');
  }
  return text.replace(/\n\(Did you mean (.+?)\?\)/, '\n(¿quisiste decir $1?)');
}

export const HELP_STYLE = {
  styleTitle: (title: string) => TITLES[title] ?? title,
  styleUsage: (usage: string) => spanishTerms(usage),
  styleSubcommandTerm: (term: string) => spanishTerms(term),
};

/** Examples under the commands people run most (`adops <command> --help`). */
const EXAMPLES: Record<string, string[]> = {
  'report zones': [
    'adops report zones                                   # los 7 días hasta ayer, en pantalla',
    'adops report zones --preset mes_anterior --sort revenue:desc --limit 10',
    'adops report zones --advertiser adnova --from 01/11/2026 --to 15/11/2026 --csv noviembre.csv',
    'adops report zones --preset mes_anterior --csv octubre.csv --excel   # para Excel en español (; y coma decimal)',
    'adops report zones --json | jq .totals',
  ],
  dashboard: ['adops dashboard --preset mes_actual', 'adops dashboard --publisher "Mundo Cine" --json'],
  explorer: ['adops explorer --zone 4101 --from 2026-11-01', 'adops explorer --sort revenue:desc --limit 20 --json'],
  finance: [
    'adops finance --from 2026-01-01 --sort total:desc',
    'adops finance --domain redtech.com --csv finance.csv',
    'adops finance --table publishers --csv finance.csv --excel',
  ],
  demand: ['adops demand --preset mes_anterior', 'adops demand --publisher "Red Tech" --json'],
  referrers: ['adops referrers --preset ayer --advertiser AdNova', 'adops referrers --from 2026-11-20 --csv'],
  tail: [
    'adops tail -n 50                 # los 50 últimos y los nuevos; p pausa, q sale',
    'adops tail --value               # con Valor (revenue por visita de la zona ese día) y TQ',
    'adops tail --zone 4101 --json | jq .referrer',
    'adops tail --alerts              # las alertas según se disparan y se resuelven',
  ],
  'import zone-report': ['adops import zone-report informe.csv', 'ADOPS_INGEST_KEY=… adops import zone-report noviembre.ndjson.gz --json'],
  'import referrers': ['adops import referrers eventos.ndjson --ingest-key …'],
  migrate: [
    'ADOPS_DATABASE_URL=postgres://adops@db/adops ADOPS_CLICKHOUSE_URL=http://ch:8123 adops migrate --data ./data',
    'adops migrate --data ./data --database-url postgres://… --clickhouse-url http://ch:8123 --json',
  ],
  'campaigns list': ['adops campaigns list --status ALL --from 2026-11-01 --sort spend:desc'],
  profit: [
    'adops profit                                        # por campaña, los 7 días hasta ayer; ▼ pierde dinero, * revenue estimado',
    'adops profit --by keyword --campaign 120210000000001 --preset mes_actual',
    'adops profit --by day --from 2026-11-01 --to 2026-11-30 --json | jq .totals',
  ],
  'spend sync': ['adops spend sync                     # los últimos 7 días', 'adops spend sync --from 2026-11-01 --to 2026-11-30 --json'],
  'rates set': ['adops rates set 2026-11 EUR 1.08      # 1 EUR = 1,08 en la moneda de la red'],
  'campaigns create': [
    'adops campaigns create --keyword "seguros de coche" --pick 2 --daily-budget 20 --bid 0,10',
    'adops campaigns create --keyword "seguros de coche" --pick 2 --daily-budget 250,00 --yes   # por encima del umbral de confirmación, sin preguntar',
  ],
  'tokens url': ['adops tokens url "Mundo Cine" --from 2026-11-01 --to 2026-11-30'],
  'tokens create': ['adops tokens create "Mundo Cine" --expires 2027-01-01 --allow-ip 203.0.113.0/24,2001:db8::/32 --limit 300'],
  'tokens update': ['adops tokens update "Mundo Cine" --limit default --expires never --allow-ip any'],
  'tokens list': ['adops tokens list                   # tokens enmascarados', 'adops tokens list --reveal --json | jq -r .[0].token'],
  options: ['adops options', 'adops options --json | jq .publishers'],
  backup: [
    'adops backup /var/backups/adops/$(date +%F)             # con el servidor en marcha',
    'adops backup ./copia --json | jq .manifest.warehouse.tables',
  ],
  restore: [
    'adops restore /var/backups/adops/2026-03-01 --data-dir ./data   # con el servidor detenido',
    'adops restore ./copia --data-dir ./data --force   # lo que había queda en ./data.pre-restore-…',
  ],
  login: [
    'adops login --email ana@example.com                 # pide la contraseña y, si la cuenta lo usa, el código',
    'adops login --email ana@example.com --totp 123456 < clave.txt',
  ],
  '2fa enable': ['adops 2fa enable                                    # QR, secreto, primer código y códigos de recuperación'],
  'users 2fa-reset': ['adops users 2fa-reset ana@example.com --yes           # perdió el teléfono y los códigos de recuperación'],
  audit: [
    'adops audit                                         # lo más reciente primero, en pantalla',
    'adops audit --actor ana@example.com --action user --since 2026-11-01 --csv',
    'adops audit --action token.revoke --json | jq .rows',
  ],
  'alerts list': ['adops alerts list                                   # las abiertas', 'adops alerts history --json | jq .rows'],
  'alerts create': [
    "adops alerts create --name 'IPs' --kind ip_burst --param visits=300 --param minutes=5",
    "adops alerts create --name 'TQ' --kind tq_low --param scope=zone --param threshold=0.5 --param hours=6",
    "adops alerts create --name 'Campañas que pierden' --kind campaign_roi --param level=campaign --param metric=roi --param threshold=0 \\",
    '    --param hours=24 --param min_spend=20 --action pause --action-cooldown 120 --daily-cap 3 --reactivate   # administradores',
  ],
  'alerts mute': ['adops alerts mute 3f2c… --minutes 60', 'adops alerts mute 3f2c… --everyone   # para todos (administradores)'],
  'alerts channels': ['adops alerts channels --digest sí                 # el resumen diario por email', 'adops alerts channels --json'],
  'alerts actions': [
    'adops alerts actions                                # lo que pausaron las reglas en Meta',
    'adops alerts undo 9b1e…                             # la reactiva en Meta (administradores)',
  ],
  completion: ['source <(adops completion bash)          # en ~/.bashrc', 'source <(adops completion zsh)           # en ~/.zshrc'],
};

function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Adds 'Ejemplos:' to every command that has some (call once the program is built). */
export function addExamples(program: Command): void {
  const visit = (cmd: Command) => {
    const examples = EXAMPLES[pathOf(cmd)];
    if (examples) cmd.addHelpText('after', `\nEjemplos:\n${examples.map((e) => `  ${e}`).join('\n')}\n`);
    cmd.commands.forEach(visit);
  };
  visit(program);
}
