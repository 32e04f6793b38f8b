// The `adops` command: commander parses the command line and calls one command; run()
// takes injectable streams and returns the exit code, so tests drive it in-process.
// A new area adds cli/src/commands/<area>.ts exporting registerX(program, cli) (use
// cli.api(cmd), cli.machine(opts.json) → cli.json(…) or cli.table({columns, rows, totals}))
// and one register line below.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { defaultIO, EXIT, EXIT_CODES_HELP, exitQuietlyOnBrokenPipe, type CliIO } from './io.js';
import { Cli, DEFAULT_SERVER } from './context.js';
import { loadCredentials } from './credentials.js';
import { registerServe } from './commands/serve.js';
import { registerAuth } from './commands/auth.js';
import { registerTwoFactor } from './commands/twofactor.js';
import { registerUsers } from './commands/users.js';
import { registerTokens } from './commands/tokens.js';
import { registerPublishers } from './commands/publishers.js';
import { registerReports } from './commands/reports.js';
import { registerDashboard } from './commands/dashboard.js';
import { registerTail } from './commands/tail.js';
import { registerReferrers } from './commands/referrers.js';
import { registerSpam } from './commands/spam.js';
import { registerCampaigns } from './commands/campaigns.js';
import { registerProfit } from './commands/profit.js';
import { registerImport } from './commands/import.js';
import { registerBackup } from './commands/backup.js';
import { registerAudit } from './commands/audit.js';
import { registerAlerts } from './commands/alerts.js';
import { registerMigrate } from './commands/migrate.js';
import { registerOptions } from './commands/options.js';
import { registerMetrics } from './commands/metrics.js';
import { registerCompletion } from './commands/completion.js';
import { HELP_STYLE, addExamples, spanishError } from './help.js';

export { EXIT, exitQuietlyOnBrokenPipe, type CliIO } from './io.js';

function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

export function buildProgram(cli: Cli): Command {
  const program = new Command('adops');
  program
    .description('AdOps Console desde la terminal')
    .version(version(), '-V, --version', 'muestra la versión')
    .helpOption('-h, --help', 'muestra la ayuda')
    .helpCommand('help [comando]', 'muestra la ayuda de un comando')
    .option('--server <url>', `servidor (o ADOPS_URL; por defecto el de la sesión guardada o ${DEFAULT_SERVER})`)
    .addHelpText('after', `\n${EXIT_CODES_HELP}`)
    .showHelpAfterError('(adops --help muestra la ayuda)')
    .configureHelp({ showGlobalOptions: true, ...HELP_STYLE })
    .configureOutput({
      writeOut: (s) => cli.io.stdout.write(s),
      writeErr: (s) => cli.io.stderr.write(spanishError(s)),
    })
    .exitOverride();
  registerServe(program, cli);
  registerAuth(program, cli);
  registerTwoFactor(program, cli);
  registerUsers(program, cli);
  registerTokens(program, cli);
  registerPublishers(program, cli);
  registerReports(program, cli);
  registerDashboard(program, cli);
  registerReferrers(program, cli);
  registerTail(program, cli);
  registerSpam(program, cli);
  registerCampaigns(program, cli);
  registerProfit(program, cli);
  registerImport(program, cli);
  registerBackup(program, cli);
  registerAudit(program, cli);
  registerAlerts(program, cli);
  registerMigrate(program, cli);
  registerOptions(program, cli);
  registerMetrics(program, cli);
  registerCompletion(program, cli);
  addExamples(program);
  return program;
}

/** Runs one command line (without `node adops`) and resolves to its exit code. */
export async function run(argv: string[], io: Partial<CliIO> = {}): Promise<number> {
  const base = defaultIO();
  const full: CliIO = {
    ...base,
    ...io,
    isTTY: io.isTTY ?? (io.stdout ? Boolean((io.stdout as { isTTY?: boolean }).isTTY) : base.isTTY),
  };
  // The server's reporting zone comes with the stored session (one small file read).
  if (full.serverTz === undefined) {
    const stored = await loadCredentials(full.env);
    const server = full.env.ADOPS_URL;
    if (stored?.tz && (!server || server.replace(/\/+$/, '') === stored.server)) full.serverTz = stored.tz;
  }
  const cli = new Cli(full);
  try {
    await buildProgram(cli).parseAsync(argv, { from: 'user' });
    return cli.cancelled ? EXIT.cancelled : EXIT.ok;
  } catch (e) {
    // commander already printed its message (or the help / version).
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return cli.fail(e);
  } finally {
    await cli.settle();
  }
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  exitQuietlyOnBrokenPipe();
  process.exitCode = await run(process.argv.slice(2));
}
