// The values an option takes where they are known (presets, sort keys, states…), noted as each
// command declares its options and read by `adops completion` to offer them after the flag.
// Apart from completion.ts so a command that notes them does not load the completion command.
import type { Command, Option } from 'commander';

const offered = new WeakMap<Option, readonly string[]>();

/** The values `flag` of `cmd` takes, offered after it (`--preset <TAB>`); the command still checks them. */
export function offerValues(cmd: Command, flag: string, values: readonly string[]): void {
  const option = cmd.options.find((o) => o.long === flag || o.short === flag);
  if (option) offered.set(option, values);
}

/** What offerValues noted for an option, if anything. */
export const offeredValues = (option: Option): readonly string[] | undefined => offered.get(option);
