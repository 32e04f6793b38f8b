// The `adops` command: commander parses the command line and calls one command; run()
// takes injectable streams and returns the exit code, so tests drive it in-process.
// Commands load lazily: the program lists every command from command-table.ts and imports only
// the module of the one being run, so `--version` and `--help` start in little more than node's
// own time (npm run bench:cli) and load no command, Ink, React or zod (cli/test/start-up.test.ts).
// A new area adds cli/src/commands/<area>.ts exporting registerX(program, cli) (use
// cli.api(cmd), cli.machine(opts.json) → cli.json(…) or cli.table({columns, rows, totals}))
// and one entry in command-table.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Help } from 'commander';
import { DEFAULT_SERVER, defaultIO, EXIT, EXIT_CODES_HELP, exitQuietlyOnBrokenPipe, type CliIO } from './io.js';
import type { Cli } from './context.js';
import { loadCredentials } from './credentials.js';
import { COMMANDS, type CommandModule, type Register } from './command-table.js';
import { HELP_STYLE, addExamples, spanishError } from './help.js';

export { EXIT, exitQuietlyOnBrokenPipe, type CliIO } from './io.js';

function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * The program with the registered modules' commands and, for every other command, a stand-in
 * with its name and description: enough for the help's list and for commander to pick the command.
 */
function program(io: CliIO, registered: ReadonlyMap<CommandModule, Register>, cli?: Cli): Command {
  const standIns = new WeakMap<Command, string>();
  const program = new Command('adops');
  program
    .description('AdOps Console desde la terminal')
    .version(version(), '-V, --version', 'muestra la versión')
    .helpOption('-h, --help', 'muestra la ayuda')
    .helpCommand('help [comando]', 'muestra la ayuda de un comando')
    .option('--server <url>', `servidor (o ADOPS_URL; por defecto el de la sesión guardada o ${DEFAULT_SERVER})`)
    .addHelpText('after', `\n${EXIT_CODES_HELP}`)
    .showHelpAfterError('(adops --help muestra la ayuda)')
    .configureHelp({
      showGlobalOptions: true,
      ...HELP_STYLE,
      // A stand-in has no options or arguments of its own: the help lists it as its module would.
      subcommandTerm(this: Help, cmd: Command) {
        return standIns.get(cmd) ?? Help.prototype.subcommandTerm.call(this, cmd);
      },
    })
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(spanishError(s)),
    })
    .exitOverride();
  for (const module of COMMANDS) {
    const register = registered.get(module);
    if (register && cli) register(program, cli);
    else
      for (const { name, args, description } of module.commands)
        standIns.set(program.command(name).description(description), args ? `${name} ${args}` : name);
  }
  addExamples(program);
  return program;
}

/** The modules a command line runs: its command's (`help X`: X's), every one for `completion`, none for the program's own help or version. */
function modulesFor(argv: string[], io: CliIO): CommandModule[] {
  // Commander itself splits the line, as it will to run it (a --version here prints and ends: the
  // CommanderError reaches run()); the command is the first operand.
  const { operands } = program(io, new Map()).parseOptions(argv);
  const name = operands[0] === 'help' ? operands[1] : operands[0];
  const module = COMMANDS.find((m) => m.commands.some((c) => c.name === name));
  if (!module) return [];
  return module.everything ? [...COMMANDS] : [module];
}

async function registrations(modules: readonly CommandModule[]): Promise<Map<CommandModule, Register>> {
  return new Map(await Promise.all(modules.map(async (m) => [m, await m.load()] as const)));
}

/** The whole program, every command module loaded (the completion script and tests walk it). */
export async function buildProgram(cli: Cli): Promise<Command> {
  return program(cli.io, await registrations(COMMANDS), cli);
}

/** Runs one command line (without `node adops`) and resolves to its exit code. */
export async function run(argv: string[], io: Partial<CliIO> = {}): Promise<number> {
  const base = defaultIO();
  const full: CliIO = {
    ...base,
    ...io,
    isTTY: io.isTTY ?? (io.stdout ? Boolean((io.stdout as { isTTY?: boolean }).isTTY) : base.isTTY),
  };
  let cli: Cli | undefined;
  try {
    const modules = modulesFor(argv, full);
    if (modules.length) {
      // The server's reporting zone comes with the stored session (one small file read).
      if (full.serverTz === undefined) {
        const stored = await loadCredentials(full.env);
        const server = full.env.ADOPS_URL;
        if (stored?.tz && (!server || server.replace(/\/+$/, '') === stored.server)) full.serverTz = stored.tz;
      }
      const [{ Cli }, registered] = await Promise.all([import('./context.js'), registrations(modules)]);
      cli = new Cli(full);
      await program(full, registered, cli).parseAsync(argv, { from: 'user' });
      return cli.cancelled ? EXIT.cancelled : EXIT.ok;
    }
    // The program's own help or version, or a wrong command line: no command runs.
    await program(full, new Map()).parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (e) {
    // commander already printed its message (or the help / version).
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (cli) return cli.fail(e);
    const { Cli } = await import('./context.js');
    return new Cli(full).fail(e);
  } finally {
    await cli?.settle();
  }
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  exitQuietlyOnBrokenPipe();
  process.exitCode = await run(process.argv.slice(2));
}
