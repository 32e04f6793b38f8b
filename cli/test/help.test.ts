// The help reads in Spanish throughout (commander's own titles, placeholders and errors too),
// the most used commands show examples, and `adops completion bash|zsh` completes commands,
// subcommands and options in a real bash.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/main.js';
import { Cli } from '../src/context.js';
import { newConfigDir, runCli } from './helpers.js';

const cli = async (args: string[]) => runCli(args, await newConfigDir(), 'http://127.0.0.1:9');

/** Every command path in the program ('report zones', 'tokens url', …). */
async function paths(): Promise<string[][]> {
  const program = await buildProgram(new Cli({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {}, isTTY: false }));
  const out: string[][] = [];
  const visit = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      if (sub.name() === 'help') continue;
      out.push([...path, sub.name()]);
      visit(sub, [...path, sub.name()]);
    }
  };
  visit(program, []);
  return out;
}

describe('adops help', () => {
  it('is in Spanish for every command: no commander English titles or placeholders', async () => {
    const all = await paths();
    expect(all.length).toBeGreaterThan(30);
    for (const p of [[], ...all]) {
      const r = await cli([...p, '--help']);
      expect(r.code, p.join(' ')).toBe(0);
      expect(r.stdout, p.join(' ')).toMatch(/^Uso: adops/);
      expect(r.stdout, p.join(' ')).not.toMatch(/\b(Usage|Options|Commands|Arguments|Global Options):|\[options\]|\[command\]/);
    }
  });

  it('shows examples under the commands people run most', async () => {
    for (const p of [['report', 'zones'], ['dashboard'], ['tail'], ['import', 'zone-report'], ['finance'], ['options']]) {
      const r = await cli([...p, '--help']);
      expect(r.stdout, p.join(' ')).toMatch(/\nEjemplos:\n {2}adops /);
    }
  });

  it('says wrong usage in Spanish, with exit code 2', async () => {
    const option = await cli(['report', 'zones', '--bogus']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("error: opción desconocida '--bogus'");
    const command = await cli(['repor']);
    expect(command.stderr).toContain("error: comando desconocido 'repor'\n(¿quisiste decir report?)");
    const argument = await cli(['import', 'zone-report']);
    expect(argument.stderr).toContain("error: falta el argumento obligatorio 'file'");
    expect(`${option.stderr}${command.stderr}${argument.stderr}`).not.toMatch(/unknown|missing|Did you mean/);
  });
});

describe('adops completion', () => {
  const run = promisify(execFile);
  /** What bash completes for a command line whose last word is being typed. */
  async function complete(script: string, words: string[]): Promise<string[]> {
    const file = path.join(tmpdir(), `adops-completion-${process.pid}.sh`);
    await writeFile(file, script);
    const array = words.map((w) => `'${w}'`).join(' ');
    const { stdout } = await run('bash', [
      '-c',
      `source ${file}; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _adops; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ]);
    return stdout.split('\n').filter(Boolean);
  }

  it('bash completes commands, subcommands and the options of the command typed', async () => {
    const r = await cli(['completion', 'bash']);
    expect(r.code).toBe(0);
    expect(await complete(r.stdout, ['adops', 'rep'])).toEqual(['report']);
    expect(await complete(r.stdout, ['adops', 'report', ''])).toEqual(expect.arrayContaining(['zones', 'publishers', 'advertisers']));
    expect(await complete(r.stdout, ['adops', 'report', 'zones', '--adv'])).toEqual(['--advertiser']);
    expect(await complete(r.stdout, ['adops', '--server', 'http://x', 'tail', '--j'])).toEqual(['--json']);
    expect(await complete(r.stdout, ['adops', 'tokens', 'ur'])).toEqual(['url']);
    expect(await complete(r.stdout, ['adops', 'tokens', 'list', '--r'])).toEqual(['--reveal']);
  });

  it('offers the values an option takes: presets, sort keys, alert states and kinds', async () => {
    const { stdout: script } = await cli(['completion', 'bash']);
    expect(await complete(script, ['adops', 'report', 'zones', '--preset', ''])).toEqual(
      expect.arrayContaining(['hoy', 'ayer', 'ultimos7', 'mes_actual', 'mes_anterior']),
    );
    expect(await complete(script, ['adops', 'report', 'zones', '--preset', 'ay'])).toEqual(['ayer']);
    expect(await complete(script, ['adops', 'report', 'zones', '--from', '2026-01-01', '--sort', 'rev'])).toEqual(['revenue']);
    expect(await complete(script, ['adops', 'dashboard', '--preset', ''])).not.toContain('--json');
    expect(await complete(script, ['adops', 'alerts', 'list', '--state', ''])).toEqual(['open', 'resolved', 'muted', 'all']);
    expect(await complete(script, ['adops', 'alerts', 'create', '--kind', 'ip'])).toEqual(['ip_burst']);
    expect(await complete(script, ['adops', 'finance', '--table', ''])).toEqual(['advertisers', 'publishers', 'margin']);
    // After a value, the command's options again.
    expect(await complete(script, ['adops', 'report', 'zones', '--preset', 'ayer', '--adv'])).toEqual(['--advertiser']);
  });

  it('zsh gets the same completion through bashcompinit; another shell is a usage error', async () => {
    const zsh = await cli(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^# adops completion \(zsh\)/);
    expect(zsh.stdout).toContain('bashcompinit');
    expect(zsh.stdout).toContain('complete -o default -F _adops adops');
    const fish = await cli(['completion', 'fish']);
    expect(fish.code).toBe(2);
    expect(fish.stderr).toContain('Shell no admitida: fish');
  });
});
