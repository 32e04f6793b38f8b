// The table `adops --help` is drawn from without loading any command (command-table.ts) says what
// the modules register: each module's top-level commands, in order, with the same arguments and
// description, and every module of cli/src/commands that registers commands is in it.
import { readdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/command-table.js';
import { Cli } from '../src/context.js';
import { buildProgram } from '../src/main.js';
import { newConfigDir, runCli } from './helpers.js';

const newCli = (stdout = new PassThrough()) => new Cli({ stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: {}, isTTY: false });

describe('the command table', () => {
  it("lists each module's commands as the module registers them", async () => {
    for (const module of COMMANDS) {
      const program = new Command('adops');
      (await module.load())(program, newCli());
      const registered = program.commands.map((c) => ({ name: c.name(), term: new Help().subcommandTerm(c), description: c.description() }));
      const listed = module.commands.map((c) => ({ name: c.name, term: c.args ? `${c.name} ${c.args}` : c.name, description: c.description }));
      expect(listed).toEqual(registered);
    }
  });

  it('holds every module of cli/src/commands that registers a command (a register function is in it or called by one that is)', async () => {
    const loaded = new Set(await Promise.all(COMMANDS.map((m) => m.load())));
    const dir = new URL('../src/commands/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const sources = files.map((f) => readFileSync(new URL(f, dir), 'utf8'));
    const missing: string[] = [];
    for (const file of files) {
      const exports = (await import(new URL(file, dir).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        if (!/^register[A-Z]/.test(name) || typeof value !== 'function' || loaded.has(value as never)) continue;
        const calledByAnother = sources.some((src, i) => files[i] !== file && new RegExp(`\\b${name}\\(`).test(src));
        if (!calledByAnother) missing.push(`${file}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('draws `adops --help` exactly as the program with every command loaded', async () => {
    const out = new PassThrough();
    let full = '';
    out.on('data', (c: Buffer) => (full += c.toString()));
    (await buildProgram(newCli(out))).outputHelp();
    const lazy = await runCli(['--help'], await newConfigDir(), 'http://127.0.0.1:9');
    expect(lazy.code).toBe(0);
    expect(lazy.stdout).toBe(full);
    expect(full).toContain('completion <shell>');
  });
});
