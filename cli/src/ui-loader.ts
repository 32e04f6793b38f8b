// Loads the Ink screens. Ink decides once, when it is first evaluated, whether it runs "in CI"
// (any CI, CONTINUOUS_INTEGRATION or CI_* variable) and then writes nothing until it exits, so
// `adops finance` in a pipeline job printed an empty line and a screen on a terminal of a shell
// that exports CI_* stayed blank until quit. adops already writes plain, escape-free output when
// stdout is not a terminal, so Ink is loaded with those variables hidden, then they are restored.
let ink: Promise<unknown> | undefined;

/** Whether `name` is one of the variables that put Ink in CI mode (what is-in-ci reads). */
export function ciVariable(name: string): boolean {
  return name === 'CI' || name === 'CONTINUOUS_INTEGRATION' || name.startsWith('CI_');
}

async function loadInk(): Promise<unknown> {
  const hidden = Object.entries(process.env).filter(([name]) => ciVariable(name));
  for (const [name] of hidden) delete process.env[name];
  try {
    return await import('ink');
  } finally {
    for (const [name, value] of hidden) process.env[name] = value;
  }
}

/** Loads what `load` imports once Ink is loaded; every module that draws with Ink comes through here. */
export async function loadUi<T>(load: () => Promise<T>): Promise<T> {
  ink ??= loadInk();
  await ink;
  return load();
}
