#!/usr/bin/env node
// TEST-ONLY: serves the embedded ClickHouse engine (chdb) over enough of ClickHouse's HTTP
// interface for @clickhouse/client with a `url`, so several processes can share one fact store
// in tests and benchmarks (chdb runs inside one process; a real deployment runs clickhouse-server).
// What it speaks: GET /ping; GET or POST / with the SQL in the `query` parameter and/or the body
// (an INSERT's rows follow its `query`, as clickhouse-server does), bound `param_<name>` values
// handed to the engine exactly as sent (already in ClickHouse's escaped text form), other URL
// parameters as settings (minus the HTTP-only ones, as chdb/connection's mapping drops them),
// `default_format`, gzip request bodies; errors as a 500 whose body is the engine's
// "Code: N. DB::Exception: …" text, which the client parses. Statements run one at a time.
// Usage: node chdb-http-server.mjs DATA_DIR [PORT] — prints "chdb-http listening on PORT" when ready.
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const chdbRoot = path.dirname(require.resolve('chdb'));
const { Session } = require('chdb');
// The native binding takes bound parameters as ClickHouse text, as an HTTP server receives them
// (chdb's own queryBind would format JS values a second time).
const native = require(path.join(chdbRoot, 'dist/loader.js')).loadNative();

const [dataDir, portArg] = process.argv.slice(2);
if (!dataDir) {
  console.error('usage: chdb-http-server.mjs DATA_DIR [PORT]');
  process.exit(2);
}
const session = new Session(path.resolve(dataDir));

/** URL parameters that are the HTTP layer's, not settings of the statement. */
const NOT_SETTINGS = new Set([
  'query',
  'database',
  'query_id',
  'session_id',
  'session_timeout',
  'session_check',
  'default_format',
  'user',
  'password',
]);
/** Settings that exist only in clickhouse-server's HTTP layer (chdb refuses them). */
const HTTP_ONLY = new Set([
  'wait_end_of_query',
  'send_progress_in_http_headers',
  'http_response_buffer_size',
  'http_headers_progress_interval_ms',
  'http_send_progress_interval_ms',
  'enable_http_compression',
  'http_zlib_compression_level',
  'http_response_compression_method',
  'http_native_compression_disable_checksumming_on_decompress',
  'compress',
  'decompress',
  'buffer_size',
]);

let queue = Promise.resolve();
/** One statement at a time (the engine is one process; ordering keeps the tests deterministic). */
function serial(work) {
  const run = queue.then(work);
  queue = run.catch(() => undefined);
  return run;
}

function statement(url, body) {
  const params = {};
  const settings = [];
  for (const [k, v] of url.searchParams) {
    if (k.startsWith('param_')) params[k.slice(6)] = v;
    else if (NOT_SETTINGS.has(k) || HTTP_ONLY.has(k)) continue;
    else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
      throw Object.assign(new Error(`Code: 115. DB::Exception: Unknown setting ${k}. (UNKNOWN_SETTING)`), { status: 400 });
    else settings.push(/^-?\d+(\.\d+)?$/.test(v) ? `SET ${k} = ${v}` : `SET ${k} = '${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`);
  }
  const query = url.searchParams.get('query');
  const text = query === null ? body : body.length > 0 ? `${query}\n${body}` : query;
  const sql = settings.length ? `${settings.join('; ')}; ${text}` : text;
  return { sql, params, format: url.searchParams.get('default_format') || 'TabSeparated' };
}

// Bound parameters travel in the URL: clickhouse-server takes URIs up to 1 MiB (http_max_uri_size).
const server = http.createServer({ maxHeaderSize: 2 * 1024 * 1024 }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/ping') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Ok.\n');
      return;
    }
    let raw = Buffer.concat(chunks);
    const queryId = url.searchParams.get('query_id') || randomUUID();
    serial(async () => {
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      const { sql, params, format } = statement(url, raw.toString('utf8'));
      if (!sql.trim()) throw Object.assign(new Error('Code: 62. DB::Exception: Empty query. (SYNTAX_ERROR)'), { status: 400 });
      return Object.keys(params).length
        ? native.QueryAsyncConnection(session.connection, sql, format, params)
        : native.QueryAsyncConnection(session.connection, sql, format);
    }).then(
      (result) => {
        const bytes = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
        const summary = { read_rows: String(result.rowsRead ?? 0), read_bytes: String(result.bytesRead ?? 0), written_rows: '0', written_bytes: '0' };
        res
          .writeHead(200, {
            'content-type': 'text/plain; charset=UTF-8',
            'x-clickhouse-query-id': queryId,
            'x-clickhouse-summary': JSON.stringify(summary),
          })
          .end(bytes);
      },
      (e) => {
        const message = e?.message ? String(e.message) : String(e);
        res.writeHead(e?.status ?? 500, { 'content-type': 'text/plain; charset=UTF-8', 'x-clickhouse-query-id': queryId }).end(`${message}\n`);
      },
    );
  });
});

server.keepAliveTimeout = 10_000;
server.listen(Number(portArg ?? 0), '127.0.0.1', () => {
  console.log(`chdb-http listening on ${server.address().port}`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  queue.finally(() => {
    session.close();
    process.exit(0);
  });
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
