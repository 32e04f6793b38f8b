// `node --import ./module-log.mjs script …` appends every module the run loads to the file named
// by ADOPS_MODULE_LOG, one URL a line: ES modules as they are resolved (a hook on the loader's
// thread) and CommonJS files from require's cache as the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

let file = process.env.ADOPS_MODULE_LOG;

if (isMainThread && file) {
  register(import.meta.url, { data: { file } });
  process.on('exit', () => {
    const cjs = Object.keys(createRequire(import.meta.url).cache).map((f) => pathToFileURL(f).href);
    appendFileSync(file, cjs.map((url) => `${url}\n`).join(''));
  });
}

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
