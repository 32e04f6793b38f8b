// fetch for adops over node:http. Node's own fetch spends ~130 ms of a one-shot command on its
// first request (undici's WebAssembly parser compiled, its pool set up): more than the rest of a
// JSON report's start. Requests without a body or with a text or bytes body go over node:http and
// answer a real Response (status, headers, the body streamed, gzip/deflate/br decoded as fetch
// does); anything else (FormData, Blob and stream uploads, a Request object) and every redirect is
// left to Node's fetch, so what a command sees is what fetch would have given it.
import http from 'node:http';
import https from 'node:https';
import { Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';

/** Kept-alive connections are reused by the next request and never hold the process open (Node unrefs idle ones). */
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
/** undici's own limits: an answer whose headers or body stall this long fails. */
const IDLE_MS = 300_000;
const NULL_BODY = new Set([101, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);

const decoders: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

function plainHeaders(init: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

export const httpFetch: typeof fetch = (input, init = {}) => {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
  const body = init.body;
  const simpleBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  const agent = url && agents[url.protocol as keyof typeof agents];
  if (!url || !agent || !simpleBody || (init.redirect && init.redirect !== 'follow')) return fetch(input, init);
  return new Promise<Response>((resolve, reject) => {
    const headers = plainHeaders(init.headers);
    // The headers Node's fetch adds when a call has not set them.
    headers.accept ??= '*/*';
    headers['accept-language'] ??= '*';
    headers['sec-fetch-mode'] ??= 'cors';
    headers['user-agent'] ??= 'node';
    headers['accept-encoding'] ??= 'gzip, deflate';
    if (body !== undefined && body !== null) headers['content-length'] = String(Buffer.byteLength(body));
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: init.method ?? 'GET',
      headers,
      agent,
      signal: init.signal ?? undefined,
      timeout: IDLE_MS,
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    const signal = init.signal;
    request.on('error', (e) => reject(e.name === 'AbortError' ? (signal?.reason ?? e) : new TypeError('fetch failed', { cause: e })));
    request.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECT.has(status) && res.headers.location) {
        res.resume();
        resolve(fetch(input, init));
        return;
      }
      const answer = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
      let stream: Readable = res;
      const coding = String(res.headers['content-encoding'] ?? '').toLowerCase();
      const decode = decoders[coding];
      if (decode && init.method !== 'HEAD') {
        const decoder = decode();
        res.on('error', (e) => decoder.destroy(e));
        stream = res.pipe(decoder);
      }
      // A stopped download fails with the signal's reason (an AbortError), as fetch's body does.
      if (signal) {
        const stop = () => stream.destroy(signal.reason);
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
        stream.once('close', () => signal.removeEventListener('abort', stop));
      }
      const empty = NULL_BODY.has(status) || init.method === 'HEAD';
      if (empty) res.resume();
      resolve(
        new Response(empty ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>), {
          status,
          statusText: res.statusMessage,
          headers: answer,
        }),
      );
    });
    request.end(body ?? undefined);
  });
};
