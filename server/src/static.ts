// Serves the built web UI: files from web/dist, index.html for any other non-API GET
// (the SPA's router decides), long-lived caching for hashed assets.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type Koa from 'koa';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function serveWeb(root: string): Koa.Middleware {
  const base = path.resolve(root);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/') || ctx.path === '/api') return next();
    let rel: string;
    try {
      rel = decodeURIComponent(ctx.path);
    } catch {
      ctx.status = 400;
      ctx.body = { detail: 'Ruta no válida' };
      return;
    }
    const file = path.resolve(base, `.${path.posix.normalize(`/${rel}`)}`);
    let target = path.join(base, 'index.html');
    if (file.startsWith(base + path.sep) && !rel.includes('\0')) {
      const s = await stat(file).catch(() => null);
      if (s?.isFile()) target = file;
    }
    const s = await stat(target).catch(() => null);
    if (!s) return next();
    ctx.type = TYPES[path.extname(target)] ?? 'application/octet-stream';
    ctx.length = s.size;
    ctx.set('Cache-Control', target.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.body = ctx.method === 'HEAD' ? null : createReadStream(target);
  };
}
