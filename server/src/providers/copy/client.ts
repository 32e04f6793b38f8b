// Copy from an OpenAI-compatible chat endpoint (POST {apiBase}/chat/completions) over undici:
// asks for JSON {headline, body, cta} in Spanish and keeps the answer within Meta's lengths.
import { request } from 'undici';
import { CTA_TYPES, type CallToAction, type SuggestedCopy } from '@adops/core';
import { DomainError } from '../../domain-errors.js';
import { readUpstream } from '../http.js';
import { BODY_MAX, HEADLINE_MAX, clip, type CopyWriter } from './template.js';

export interface ChatCopyOptions {
  apiBase: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
}

const SYSTEM_PROMPT =
  'Eres redactor de anuncios para Facebook en español de España. Responde solo con un objeto JSON ' +
  `{"headline": string, "body": string, "cta": string}: headline de como máximo ${HEADLINE_MAX} caracteres, ` +
  `body (texto principal) de como máximo ${BODY_MAX} caracteres, cta uno de ${CTA_TYPES.join(', ')}. ` +
  'Sin promesas engañosas ni mayúsculas sostenidas.';

/** The user message; the keyword is quoted as data, never as instructions. */
export const copyPrompt = (keyword: string) => `Palabra clave: ${JSON.stringify(keyword)}`;

export class ChatCopyWriter implements CopyWriter {
  constructor(private readonly options: ChatCopyOptions) {}

  async write(keyword: string): Promise<SuggestedCopy> {
    const timeout = this.options.timeoutMs ?? 20_000;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(`${this.options.apiBase.replace(/\/$/, '')}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: this.options.model ?? 'gpt-4o-mini',
          temperature: 0.7,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content: copyPrompt(keyword) },
          ],
        }),
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: AbortSignal.timeout(timeout),
      });
    } catch {
      throw new DomainError('upstream', 'No se pudo conectar con el servicio de textos');
    }
    const text = (await readUpstream(res.body, 1024 * 1024).catch(() => Buffer.alloc(0))).toString('utf8');
    if (res.statusCode !== 200) throw new DomainError('upstream', `El servicio de textos respondió con un error (HTTP ${res.statusCode})`);
    const copy = parseCopy(text);
    if (!copy) throw new DomainError('upstream', 'El servicio de textos devolvió una respuesta no válida');
    return copy;
  }
}

/** Reads {headline, body, cta} out of a chat completion; null when it is not there. */
export function parseCopy(completion: string): SuggestedCopy | null {
  try {
    const content = (JSON.parse(completion) as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message?.content;
    if (typeof content !== 'string') return null;
    const json = content.replace(/^\s*```(?:json)?\s*/i, '').replace(/\s*```\s*$/, '');
    const v = JSON.parse(json) as Record<string, unknown>;
    if (typeof v.headline !== 'string' || typeof v.body !== 'string') return null;
    const headline = clip(v.headline, HEADLINE_MAX);
    const body = clip(v.body, BODY_MAX);
    if (!headline || !body) return null;
    const cta =
      typeof v.cta === 'string' && (CTA_TYPES as string[]).includes(v.cta.trim().toUpperCase())
        ? (v.cta.trim().toUpperCase() as CallToAction)
        : 'LEARN_MORE';
    return { headline, body, cta };
  } catch {
    return null;
  }
}
