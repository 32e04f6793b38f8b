// Local Pixabay sandbox (node:http on 127.0.0.1): the search API with Pixabay's parameters,
// errors and X-RateLimit-* headers, answering with the bundled images; records searches.
import http from 'node:http';
import { createHash } from 'node:crypto';
import { listenLocal, sendJson } from '../providers/http.js';
import { bundledImages, SANDBOX_IMAGE_PATH, type BundledImage } from './pixabay-images.js';

export interface PixabaySandboxOptions {
  key: string;
  /** Searches allowed per window (Pixabay: 100 per 60 s). */
  limit?: number;
  windowSeconds?: number;
}

/** Pixabay pretends to hold this many photos for any keyword (5 pages of 20). */
const TOTAL_HITS = 100;

export class PixabaySandbox {
  /** Searches answered with hits. */
  readonly searches: Array<{ q: string; page: number; per_page: number }> = [];
  /** Every call to the search API, answered or refused. */
  apiCalls = 0;
  limit: number;
  private used = 0;
  private windowStart = Date.now();

  private constructor(
    private readonly options: PixabaySandboxOptions,
    private readonly images: BundledImage[],
    readonly url: string,
    private readonly closer: () => Promise<void>,
  ) {
    this.limit = options.limit ?? 100;
  }

  static async start(options: PixabaySandboxOptions): Promise<PixabaySandbox> {
    const images = await bundledImages();
    let sandbox: PixabaySandbox | undefined;
    const server = http.createServer((req, res) => {
      try {
        sandbox!.handle(req, res);
      } catch {
        if (!res.headersSent) sandbox!.text(res, 500, '[ERROR 500] Sandbox error');
        else res.destroy();
      }
    });
    const { url, close } = await listenLocal(server);
    sandbox = new PixabaySandbox(options, images, url, close);
    return sandbox;
  }

  close(): Promise<void> {
    return this.closer();
  }

  /** The search API's base URL (what PIXABAY_API_BASE would be). */
  get apiBase(): string {
    return `${this.url}/api/`;
  }

  /** Leaves `n` searches in the current window, as if the key had made the others. */
  allow(n: number): void {
    this.used = Math.max(0, this.limit - n);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const u = new URL(req.url ?? '/', 'http://sandbox');
    if (req.method === 'GET' && u.pathname.startsWith('/images/')) {
      const image = this.images.find((i) => i.file === u.pathname.slice(8));
      if (!image) {
        sendJson(res, 404, { error: 'not found' });
        return;
      }
      res.writeHead(200, { 'content-type': image.type, 'content-length': image.bytes.length });
      res.end(image.bytes);
      return;
    }
    if (req.method !== 'GET' || u.pathname !== '/api/') {
      this.text(res, 404, '[ERROR 404] Not found');
      return;
    }
    this.apiCalls++;
    const now = Date.now();
    const windowMs = (this.options.windowSeconds ?? 60) * 1000;
    if (now - this.windowStart >= windowMs) {
      this.windowStart = now;
      this.used = 0;
    }
    const reset = Math.max(1, Math.ceil((this.windowStart + windowMs - now) / 1000));
    const rate = () => ({
      'X-RateLimit-Limit': String(this.limit),
      'X-RateLimit-Remaining': String(Math.max(0, this.limit - this.used)),
      'X-RateLimit-Reset': String(reset),
    });
    if (this.used >= this.limit) {
      this.text(res, 429, '[ERROR 429] Too many requests', rate());
      return;
    }
    this.used++;
    const p = u.searchParams;
    if (p.get('key') !== this.options.key) {
      this.text(res, 400, '[ERROR 400] Invalid or missing API key', rate());
      return;
    }
    const q = p.get('q') ?? '';
    if (q.length > 100) {
      this.text(res, 400, '[ERROR 400] "q" exceeds the maximum length of 100 characters.', rate());
      return;
    }
    const page = Number(p.get('page') ?? '1');
    const perPage = Number(p.get('per_page') ?? '20');
    if (!Number.isInteger(perPage) || perPage < 3 || perPage > 200) {
      this.text(res, 400, '[ERROR 400] "per_page" is out of valid range.', rate());
      return;
    }
    if (!Number.isInteger(page) || page < 1 || (page - 1) * perPage >= TOTAL_HITS) {
      this.text(res, 400, '[ERROR 400] "page" is out of valid range.', rate());
      return;
    }
    this.searches.push({ q, page, per_page: perPage });
    // The bundled images in an order fixed by keyword and page, so pages differ.
    const order = [...this.images].sort((a, b) => rank(`${q.toLowerCase()}|${page}|${a.file}`) - rank(`${q.toLowerCase()}|${page}|${b.file}`));
    const hits = order.slice(0, Math.min(perPage, order.length)).map((image) => ({
      id: image.id,
      pageURL: `https://pixabay.com/photos/sandbox-${image.id}/`,
      type: 'photo',
      tags: `${q.toLowerCase()}, sandbox`,
      previewURL: SANDBOX_IMAGE_PATH + image.file,
      previewWidth: 150,
      previewHeight: 78,
      webformatURL: SANDBOX_IMAGE_PATH + image.file,
      largeImageURL: SANDBOX_IMAGE_PATH + image.file,
      imageWidth: 600,
      imageHeight: 314,
      imageSize: image.bytes.length,
      user: 'adops-sandbox',
    }));
    sendJson(res, 200, { total: TOTAL_HITS, totalHits: TOTAL_HITS, hits }, rate());
  }

  text(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
    res.end(body);
  }
}

const rank = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0);
