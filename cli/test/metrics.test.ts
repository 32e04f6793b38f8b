// `adops metrics` says what every figure is, in the registry's words (the web's tooltips), with
// one CTR and one name for what the publisher is paid; it needs no server.
import { describe, expect, it } from 'vitest';
import { METRICS, PROFIT_METRICS, metricGlossary } from '@adops/core';
import { newConfigDir, runCli } from './helpers.js';

const cli = async (args: string[], terminal?: { columns: number }) =>
  runCli(args, await newConfigDir(), 'http://127.0.0.1:9', terminal ? { isTTY: true, columns: terminal.columns } : {});

describe('adops metrics', () => {
  it('lists every figure with its header, name and definition, as the registry has them', async () => {
    const r = await cli(['metrics'], { columns: 200 });
    expect(r.code).toBe(0);
    const text = r.stdout.replace(/\s+/g, ' ');
    for (const e of metricGlossary()) {
      expect(text).toContain(`${e.label} — ${e.name} (${e.key};`);
      expect(text).toContain(e.definition);
    }
    expect(text).toContain(METRICS.ctr.definition);
    expect(text).toContain(PROFIT_METRICS.roi.definition);
    // One decimal is one, in the singular: 'Cambio … (change_percent; %, 1 decimal)'.
    expect(text).toContain('(change_percent; %, 1 decimal)');
    expect(text).toContain('(roi; %, 2 decimales)');
  });

  it('has one CTR and one name for the money paid to publishers', async () => {
    // Piped (not a terminal), the command answers JSON as every other.
    const { stdout } = await cli(['metrics', '--area', 'informes']);
    const entries = JSON.parse(stdout) as Array<{ key: string; label: string; area: string }>;
    expect(entries.every((e) => e.area === 'Informes')).toBe(true);
    expect(entries.filter((e) => e.label.startsWith('CTR')).map((e) => e.key)).toEqual(['ctr']);
    expect(entries.map((e) => e.label)).toContain('P.Revenue');
    expect(entries.map((e) => e.label)).not.toContain('Cost');
  });

  it('keeps every line of the text within the terminal width', async () => {
    const { stdout } = await cli(['metrics', '--area', 'rentabilidad'], { columns: 60 });
    for (const line of stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
  });

  it('refuses an unknown area in words, with the usage exit code', async () => {
    const r = await cli(['metrics', '--area', 'ventas']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Área desconocida: ventas');
  });
});
