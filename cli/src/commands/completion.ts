// `adops completion bash|zsh`: a completion script made from the command tree itself (commands,
// subcommands and each one's options), so it never falls behind the commands.
import type { Command } from 'commander';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';

/** 'report zones' → its subcommands and options, for every command path in the tree. */
function tree(program: Command): Map<string, { commands: string[]; options: string[] }> {
  const out = new Map<string, { commands: string[]; options: string[] }>();
  const visit = (cmd: Command, path: string) => {
    const options = cmd.options.flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f)));
    out.set(path, { commands: cmd.commands.map((c) => c.name()).filter((n) => n !== 'help'), options: [...options, '--help'] });
    for (const sub of cmd.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return out;
}

export function bashCompletion(program: Command): string {
  const cases = [...tree(program)]
    .map(([path, { commands, options }]) => `    ${JSON.stringify(path)}) words=${JSON.stringify([...commands, ...options].join(' '))} ;;`)
    .join('\n');
  return `# adops completion (bash). Load it with: source <(adops completion bash)
_adops() {
  local cur path i words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  path=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      -*) ;;
      *) if [[ -n "$(_adops_words "\${path:+$path }\${COMP_WORDS[i]}")" ]]; then path="\${path:+$path }\${COMP_WORDS[i]}"; fi ;;
    esac
  done
  COMPREPLY=($(compgen -W "$(_adops_words "$path")" -- "$cur"))
}
_adops_words() {
  local words=""
  case "$1" in
${cases}
  esac
  echo "$words"
}
complete -o default -F _adops adops
`;
}

export function registerCompletion(program: Command, cli: Cli): void {
  program
    .command('completion')
    .description('Imprime el script de autocompletado de la terminal (bash o zsh)')
    .argument('<shell>', 'bash o zsh')
    .action((shell: string) => {
      const script = bashCompletion(program);
      if (shell === 'bash') return void cli.io.stdout.write(script);
      // zsh runs the bash completion through its bashcompinit layer.
      if (shell === 'zsh')
        return void cli.io.stdout.write(
          `# adops completion (zsh). Load it with: source <(adops completion zsh)\nautoload -U +X bashcompinit && bashcompinit\n${script}`,
        );
      throw new CliError(`Shell no admitida: ${shell} (usa bash o zsh)`, EXIT.usage);
    });
}
