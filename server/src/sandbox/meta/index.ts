// Local Graph API sandbox (node:http on 127.0.0.1): the Marketing API paths the client uses,
// objects kept in memory, Graph error shapes, deterministic insights, recorded requests and
// failure injection, so the real MetaClient runs in demo mode and in tests. This file is the
// HTTP side (paths, token, recording, injected failures); the account, its writes and reads
// live beside it.
import http from 'node:http';
import { listenLocal, readRequest, sendJson, sniffImageType, BodyTooLargeError } from '../../providers/http.js';
import type { GraphErrorBody } from '../../providers/meta/client.js';
import { GraphAccount } from './account.js';
import { fail, GraphFailure, parseValue } from './graph.js';
import { adInsights, listCampaigns } from './reads.js';
import type { MetaSandboxOptions, SandboxAd, SandboxObject, SandboxRequest, SandboxStatusChange } from './types.js';
import {
  createAd,
  createAdSet,
  createCampaign,
  createCreative,
  deleteImage,
  deleteObject,
  minimumBudgets,
  readObject,
  updateObject,
  uploadImage,
} from './writes.js';

export type { MetaSandboxOptions, SandboxAd, SandboxObject, SandboxRequest, SandboxStatusChange } from './types.js';
export { sandboxDailyMetrics } from './delivery.js';
export { SANDBOX_BID_BUDGET_RATIO } from './writes.js';

const MAX_BODY = 16 * 1024 * 1024;
/** Graph answers these rate limits with HTTP 403; the body's code is what counts. */
const RATE_STATUS = new Set([4, 17, 32, 613]);
const MAX_RECORDED = 500;

export class MetaSandbox {
  readonly requests: SandboxRequest[] = [];
  private readonly failures = new Map<string, GraphErrorBody[]>();
  private trace = 0;
  private readonly account: GraphAccount;

  private constructor(
    private readonly options: MetaSandboxOptions,
    readonly url: string,
    private readonly closer: () => Promise<void>,
  ) {
    this.account = new GraphAccount(options, url);
  }

  static async start(options: MetaSandboxOptions): Promise<MetaSandbox> {
    let sandbox: MetaSandbox | undefined;
    const server = http.createServer((req, res) => {
      sandbox!.handle(req, res).catch((e: Error) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: e.message, type: 'SandboxError', code: 1 } });
        else res.destroy();
      });
    });
    const { url, close } = await listenLocal(server);
    sandbox = new MetaSandbox(options, url, close);
    sandbox.account.seed(options.seedCampaigns ?? 24);
    return sandbox;
  }

  close(): Promise<void> {
    return this.closer();
  }

  get objects(): Map<string, SandboxObject> {
    return this.account.objects;
  }

  get images(): Map<string, Buffer> {
    return this.account.images;
  }

  /** Every status change received (campaigns, ad sets, ads), oldest first. */
  get statusChanges(): SandboxStatusChange[] {
    return this.account.statusChanges;
  }

  /** Largest page an edge returns. */
  get maxPageSize(): number {
    return this.account.maxPageSize;
  }

  set maxPageSize(size: number) {
    this.account.maxPageSize = size;
  }

  /** Makes the next `times` calls to `edge` fail with this Graph error (defaults: code 100). */
  failNext(edge: string, error: Partial<GraphErrorBody> = {}, times = 1): void {
    const body: GraphErrorBody = { message: '(#100) Sandbox: fallo simulado', type: 'OAuthException', code: 100, ...error };
    this.failures.set(edge, [...(this.failures.get(edge) ?? []), ...Array.from({ length: times }, () => body)]);
  }

  clearFailures(): void {
    this.failures.clear();
  }

  /** Recorded requests to one edge, oldest first. */
  requestsTo(edge: string): SandboxRequest[] {
    return this.requests.filter((r) => r.edge === edge);
  }

  /** The ads of the account with their campaign's keyword and delivery (the demo traffic attributes visits to them). */
  ads(): SandboxAd[] {
    return this.account.ads();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://sandbox');
    const match = /^\/(v\d+\.\d+)(\/.*)$/.exec(u.pathname);
    const method = req.method ?? 'GET';
    if (method === 'GET' && u.pathname.startsWith('/adimage-files/')) return this.serveImage(u.pathname.slice(15), res);
    let params: Record<string, unknown> = {};
    for (const [k, v] of u.searchParams) params[k] = parseValue(v);
    let edge = 'unknown';
    let recorded: SandboxRequest | undefined;
    const answer = (status: number, body: unknown) => {
      if (recorded) Object.assign(recorded, { status, answer: body });
      sendJson(res, status, body);
    };
    try {
      if (method === 'POST') {
        const raw = await readRequest(req, MAX_BODY);
        const type = req.headers['content-type'] ?? '';
        if (type.includes('application/json')) {
          const json = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
          params = { ...params, ...json };
        } else {
          for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) params[k] = parseValue(v);
        }
      }
      const path = match?.[2] ?? u.pathname;
      this.account.version = match?.[1] ?? this.account.version;
      edge = this.edgeOf(method, path);
      recorded = this.record(method, path, edge, params);
      if (!match) fail(400, `Unknown path components: ${u.pathname}`, { code: 2500 });
      const token = (req.headers.authorization ?? '').replace(/^(Bearer|OAuth)\s+/i, '') || params.access_token;
      if (token !== this.options.accessToken) fail(400, 'Invalid OAuth access token - Cannot parse access token', { code: 190 });
      const queued = this.failures.get(edge);
      if (queued?.length) {
        const error = queued.shift()!;
        throw new GraphFailure(RATE_STATUS.has(error.code ?? 0) ? 403 : 400, { ...error });
      }
      const name = typeof params.name === 'string' ? params.name : '';
      const magic = /#fail:(\w+)/.exec(name);
      if (method === 'POST' && magic?.[1] === edge)
        fail(400, `(#100) Sandbox: fallo solicitado en ${edge}`, {
          error_user_title: 'Fallo simulado',
          error_user_msg: `El sandbox de Meta rechazó el paso "${edge}" (solicitado con #fail:${edge}).`,
        });
      answer(200, this.route(method, path, edge, params));
    } catch (e) {
      if (e instanceof GraphFailure) {
        this.trace++;
        answer(e.status, { error: { ...e.body, fbtrace_id: `Sbx${this.trace.toString(36).padStart(8, '0')}` } });
      } else if (e instanceof BodyTooLargeError) {
        sendJson(res, 413, { error: { message: 'Request body too large', type: 'OAuthException', code: 1 } });
      } else if (e instanceof SyntaxError) {
        sendJson(res, 400, { error: { message: 'Malformed JSON body', type: 'OAuthException', code: 100 } });
      } else throw e;
    }
  }

  private edgeOf(method: string, path: string): string {
    const parts = path.split('/').filter(Boolean);
    if (parts.length === 2 && parts[0].startsWith('act_')) return method === 'GET' && parts[1] === 'campaigns' ? 'campaigns.list' : parts[1];
    if (parts.length === 1 && method === 'GET' && parts[0].startsWith('act_')) return 'account';
    if (parts.length === 1) return method === 'DELETE' ? 'delete' : method === 'POST' ? 'update' : 'read';
    return 'unknown';
  }

  private record(method: string, path: string, edge: string, params: Record<string, unknown>): SandboxRequest {
    const shown = { ...params };
    delete shown.access_token;
    if (typeof shown.bytes === 'string') shown.bytes = `[base64, ${shown.bytes.length} caracteres]`;
    const entry: SandboxRequest = { method, path, edge, params: shown };
    this.requests.push(entry);
    if (this.requests.length > MAX_RECORDED) this.requests.splice(0, this.requests.length - MAX_RECORDED);
    return entry;
  }

  private route(method: string, path: string, edge: string, p: Record<string, unknown>): unknown {
    const account = this.account;
    const parts = path.split('/').filter(Boolean);
    if (parts[0]?.startsWith('act_') && parts[0] !== account.account)
      fail(
        400,
        `(#100) Unsupported ${method.toLowerCase()} request. Object with ID '${parts[0]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
        { error_subcode: 33 },
      );
    switch (`${method} ${edge}`) {
      case 'POST adimages':
        return uploadImage(account, p);
      case 'DELETE adimages':
        return deleteImage(account, p);
      case 'POST campaigns':
        return createCampaign(account, p);
      case 'POST adsets':
        return createAdSet(account, p);
      case 'POST adcreatives':
        return createCreative(account, p);
      case 'POST ads':
        return createAd(account, p);
      case 'GET campaigns.list':
        return listCampaigns(account, path, p);
      case 'GET insights':
        return adInsights(account, path, p);
      case 'GET account':
        return { id: account.account, account_id: account.account.slice(4), currency: account.currency };
      case 'GET minimum_budgets':
        return { data: [minimumBudgets(account)] };
      case 'DELETE delete':
        return deleteObject(account, parts[0]);
      case 'POST update':
        return updateObject(account, parts[0], p);
      case 'GET read':
        return readObject(account, parts[0]);
      default:
        fail(400, `(#100) Unsupported ${method.toLowerCase()} request`, { error_subcode: 33 });
    }
  }

  private serveImage(hash: string, res: http.ServerResponse): void {
    const bytes = this.account.images.get(hash);
    if (!bytes) {
      sendJson(res, 404, { error: { message: 'Not found', code: 100 } });
      return;
    }
    res.writeHead(200, { 'content-type': sniffImageType(bytes) ?? 'application/octet-stream', 'content-length': bytes.length });
    res.end(bytes);
  }
}
