// Local OpenAI-compatible chat sandbox (node:http on 127.0.0.1): answers /chat/completions
// with the template writer's copy as JSON content, records requests and fails on demand,
// so the chat client's code runs in tests exactly as against a real endpoint.
import http from 'node:http';
import { listenLocal, readRequest, sendJson } from '../providers/http.js';
import { templateCopy } from '../providers/copy/template.js';

export interface ChatSandboxReply {
  status: number;
  /** The assistant message content (ignored when status is not 200). */
  content?: string;
}

export class ChatSandbox {
  readonly requests: Array<{ authorization?: string; body: Record<string, unknown> }> = [];
  private readonly queued: ChatSandboxReply[] = [];

  private constructor(
    readonly url: string,
    private readonly closer: () => Promise<void>,
  ) {}

  static async start(): Promise<ChatSandbox> {
    let sandbox: ChatSandbox | undefined;
    const server = http.createServer((req, res) => {
      sandbox!.handle(req, res).catch(() => res.destroy());
    });
    const { url, close } = await listenLocal(server);
    sandbox = new ChatSandbox(url, close);
    return sandbox;
  }

  /** The base URL a client is configured with (ADOPS_COPY_API_BASE). */
  get apiBase(): string {
    return `${this.url}/v1`;
  }

  close(): Promise<void> {
    return this.closer();
  }

  /** The next completion answers this instead of the template copy. */
  replyNext(reply: ChatSandboxReply): void {
    this.queued.push(reply);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return sendJson(res, 404, { error: { message: 'Not found' } });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse((await readRequest(req, 256 * 1024)).toString('utf8')) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { error: { message: 'Invalid JSON body', type: 'invalid_request_error' } });
    }
    this.requests.push({ authorization: req.headers.authorization, body });
    const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string; content?: unknown }>) : [];
    const user = messages.filter((m) => m.role === 'user').pop();
    const match = typeof user?.content === 'string' ? /Palabra clave: (".*")/.exec(user.content) : null;
    if (!body.model || !match)
      return sendJson(res, 400, { error: { message: 'model and a user message are required', type: 'invalid_request_error' } });
    const reply = this.queued.shift() ?? { status: 200, content: JSON.stringify(templateCopy(JSON.parse(match[1]) as string)) };
    if (reply.status !== 200) return sendJson(res, reply.status, { error: { message: 'Sandbox: fallo simulado', type: 'server_error' } });
    sendJson(res, 200, {
      id: `chatcmpl-sandbox-${this.requests.length}`,
      object: 'chat.completion',
      model: body.model,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply.content } }],
    });
  }
}
