// The import graph of every workspace has no circles (type imports count: a circle of types still
// ties two files so neither can move alone), and no workspace imports one above it
// (core ← server, web ← cli). Read from the sources with TypeScript's own import scanner.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** file → the files of the same workspace it imports (relative specifiers), and the packages it names. */
function graph(workspace: string): { edges: Map<string, string[]>; packages: Map<string, string[]> } {
  const files = sources(path.join(root, workspace, 'src'));
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const local: string[] = [];
    const named: string[] = [];
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) {
        named.push(fileName);
        continue;
      }
      const base = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '');
      const target = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) => known.has(f));
      if (target) local.push(target);
    }
    edges.set(file, local);
    packages.set(file, named);
  }
  return { edges, packages };
}

/** The circles of a graph (strongly connected parts of more than one file, or a file importing itself). */
function circles(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || edges.get(v)?.includes(v)) found.push(part.map((f) => path.relative(root, f)).sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

const WORKSPACES = ['core', 'server', 'web', 'cli'] as const;
/** The workspaces each may import: core stands alone; server and web on core; cli on core (and server, to serve). */
const MAY_IMPORT: Record<(typeof WORKSPACES)[number], string[]> = {
  core: [],
  server: ['@adops/core'],
  web: ['@adops/core'],
  cli: ['@adops/core', '@adops/server'],
};

describe('the import graph', () => {
  for (const workspace of WORKSPACES) {
    test(`${workspace} has no circles, type imports included`, () => {
      expect(circles(graph(workspace).edges)).toEqual([]);
    });

    test(`${workspace} imports no workspace above it`, () => {
      const upward: string[] = [];
      for (const [file, named] of graph(workspace).packages)
        for (const name of named)
          if (name.startsWith('@adops/') && !MAY_IMPORT[workspace].some((p) => name === p || name.startsWith(`${p}/`)))
            upward.push(`${path.relative(root, file)} → ${name}`);
      expect(upward).toEqual([]);
    });
  }

  test('server: the layers below HTTP (services, stores, warehouse, live bus, providers) import nothing of it, its error middleware included', () => {
    const { edges, packages } = graph('server');
    const rel = (f: string) => path.relative(path.join(root, 'server/src'), f);
    const lower = (f: string) => /^(services|store|warehouse|live|providers|backup)\//.test(rel(f));
    const http = (f: string) => /^(http|http-export|errors|app|lean-stream|beacon|static|security-headers)\.ts$|^routes\//.test(rel(f));
    const upward: string[] = [];
    for (const [file, targets] of edges) {
      if (!lower(file)) continue;
      for (const t of targets) if (http(t)) upward.push(`${rel(file)} → ${rel(t)}`);
      for (const name of packages.get(file) ?? []) if (name === 'koa' || name.startsWith('@koa/')) upward.push(`${rel(file)} → ${name}`);
    }
    expect(upward.sort()).toEqual([]);
  });

  test('server: services speak no HTTP (no http.ts, errors.ts or Koa import, no httpError): they throw domain errors', () => {
    const { edges, packages } = graph('server');
    const rel = (f: string) => path.relative(path.join(root, 'server/src'), f);
    const speaking: string[] = [];
    for (const [file, targets] of edges) {
      if (!rel(file).startsWith('services/')) continue;
      for (const t of targets) if (/^(http|errors)\.ts$/.test(rel(t))) speaking.push(`${rel(file)} → ${rel(t)}`);
      for (const name of packages.get(file) ?? [])
        if (name === 'koa' || name.startsWith('koa-') || name.startsWith('@koa/')) speaking.push(`${rel(file)} → ${name}`);
      if (/\b(httpError|HttpError)\b/.test(readFileSync(file, 'utf8'))) speaking.push(`${rel(file)} names httpError/HttpError`);
    }
    expect(speaking.sort()).toEqual([]);
  });

  test('finds a circle when there is one (the check itself works)', () => {
    const a = '/x/a.ts';
    const b = '/x/b.ts';
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toHaveLength(1);
  });
});
