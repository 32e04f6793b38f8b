// `adops completion bash|zsh`: a completion script made from the command tree itself (commands,
// subcommands and each one's options, and the values an option takes where they are known:
// presets, sort keys, states…), so it never falls behind the commands.
import type { Command, Option } from 'commander';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import { LISTED } from './filter-list.js';
import { offeredValues } from './option-values.js';

/** Options whose values only the server knows (advertisers, publishers…): asked of `adops options --values` as you type. */
const askedFilter = (long: string | undefined): string | undefined => LISTED.find((l) => `--${l.flag}` === long)?.flag;

interface Node {
  commands: string[];
  options: string[];
  /** An option's flags → the values it takes. */
  values: Array<{ flags: string[]; values: readonly string[] }>;
  /** An option's flags → the filter whose values the server lists. */
  asked: Array<{ flags: string[]; filter: string }>;
}

/** 'report zones' → its subcommands, options and option values, for every command path in the tree. */
function tree(program: Command): Map<string, Node> {
  const out = new Map<string, Node>();
  const visit = (cmd: Command, path: string) => {
    const flags = (o: Option) => [o.short, o.long].filter((f): f is string => Boolean(f));
    const options = cmd.options.flatMap(flags);
    const values = cmd.options.flatMap((o) => {
      const known = offeredValues(o) ?? o.argChoices;
      return known?.length ? [{ flags: flags(o), values: known }] : [];
    });
    const asked = cmd.options.flatMap((o) => {
      const filter = askedFilter(o.long);
      return filter ? [{ flags: flags(o), filter }] : [];
    });
    out.set(path, { commands: cmd.commands.map((c) => c.name()).filter((n) => n !== 'help'), options: [...options, '--help'], values, asked });
    for (const sub of cmd.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return out;
}

export function bashCompletion(program: Command): string {
  const nodes = [...tree(program)];
  const cases = nodes
    .map(([path, { commands, options }]) => `    ${JSON.stringify(path)}) words=${JSON.stringify([...commands, ...options].join(' '))} ;;`)
    .join('\n');
  const valueCases = nodes
    .flatMap(([path, { values }]) =>
      values.map((v) => `    ${v.flags.map((f) => JSON.stringify(`${path} ${f}`)).join('|')}) words=${JSON.stringify(v.values.join(' '))} ;;`),
    )
    .join('\n');
  const askedCases = nodes
    .flatMap(([path, { asked }]) => asked.map((a) => `    ${a.flags.map((f) => JSON.stringify(`${path} ${f}`)).join('|')}) echo ${a.filter} ;;`))
    .join('\n');
  return `# adops completion (bash). Load it with: source <(adops completion bash)
_adops() {
  local cur prev path i words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  path=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      -*) ;;
      *) if [[ -n "$(_adops_words "\${path:+$path }\${COMP_WORDS[i]}")" ]]; then path="\${path:+$path }\${COMP_WORDS[i]}"; fi ;;
    esac
  done
  local filter v
  filter="$(_adops_asked "$path $prev")"
  if [[ -n "$filter" ]]; then
    # Values with spaces (Pub Uno) are offered whole, escaped for the command line.
    COMPREPLY=()
    while IFS= read -r v; do
      [[ "\${v,,}" == "\${cur,,}"* ]] && COMPREPLY+=("$(printf '%q' "$v")")
    done < <("\${COMP_WORDS[0]}" options --values "$filter" 2>/dev/null)
    return
  fi
  words="$(_adops_values "$path $prev")"
  COMPREPLY=($(compgen -W "\${words:-$(_adops_words "$path")}" -- "$cur"))
}
_adops_asked() {
  case "$1" in
${askedCases}
  esac
}
_adops_values() {
  local words=""
  case "$1" in
${valueCases}
  esac
  echo "$words"
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
