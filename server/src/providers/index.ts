// Builds the outside-world providers from the configuration: the real clients, pointed at
// Meta, Pixabay and the copy endpoint when configured, otherwise at local sandboxes (Meta,
// Pixabay) or the template writer (copy) — the client code is the same either way.
import type { Config } from '../config.js';
import { MetaClient } from './meta/client.js';
import { MetaSandbox } from '../sandbox/meta/index.js';
import { PixabayClient } from './pixabay/client.js';
import { PixabaySandbox } from '../sandbox/pixabay.js';
import { ChatCopyWriter } from './copy/client.js';
import { TemplateCopyWriter, type CopyWriter } from './copy/template.js';

/** The Facebook page ads are published from when neither the form nor META_PAGE_ID names one. */
export const DEFAULT_PAGE_ID = '104735921850000';
/** The credentials the Meta sandbox accepts (the client sends them like real ones). */
export const SANDBOX_TOKEN = 'sandbox-access-token';
export const SANDBOX_ACCOUNT = 'act_1000000000001';
const SANDBOX_PIXABAY_KEY = 'sandbox-pixabay-key';

export interface Providers {
  meta: MetaClient;
  /** Set when Meta credentials are absent: the local Graph sandbox the client talks to. */
  metaSandbox: MetaSandbox | null;
  pageId: string;
  images: PixabayClient;
  /** Set when no Pixabay key is configured. */
  pixabaySandbox: PixabaySandbox | null;
  copy: CopyWriter;
  close(): Promise<void>;
}

export async function createProviders(config: Config, log: (line: string) => void): Promise<Providers> {
  const closers: Array<() => Promise<void>> = [];
  try {
    const m = config.meta;
    let meta: MetaClient;
    let metaSandbox: MetaSandbox | null = null;
    if (m.accessToken && m.adAccountId) {
      meta = new MetaClient({
        apiBase: m.apiBase ?? 'https://graph.facebook.com',
        apiVersion: m.apiVersion,
        accessToken: m.accessToken,
        adAccountId: m.adAccountId,
      });
    } else {
      if (m.accessToken || m.adAccountId) log('META_ACCESS_TOKEN and META_AD_ACCOUNT_ID must both be set; using the Meta sandbox');
      metaSandbox = await MetaSandbox.start({ accessToken: SANDBOX_TOKEN, adAccountId: SANDBOX_ACCOUNT });
      closers.push(() => metaSandbox!.close());
      meta = new MetaClient({
        apiBase: metaSandbox.url,
        apiVersion: m.apiVersion,
        accessToken: SANDBOX_TOKEN,
        adAccountId: SANDBOX_ACCOUNT,
        // The sandbox's rate limits are simulated: back off briefly.
        retry: { retries: 3, baseMs: 20, maxMs: 200 },
      });
    }

    let images: PixabayClient;
    let pixabaySandbox: PixabaySandbox | null = null;
    if (config.pixabay.key) {
      images = new PixabayClient({ apiBase: config.pixabay.apiBase ?? 'https://pixabay.com/api/', key: config.pixabay.key });
    } else {
      pixabaySandbox = await PixabaySandbox.start({ key: SANDBOX_PIXABAY_KEY });
      closers.push(() => pixabaySandbox!.close());
      images = new PixabayClient({ apiBase: pixabaySandbox.apiBase, key: SANDBOX_PIXABAY_KEY });
    }

    const copy: CopyWriter = config.copy.apiBase
      ? new ChatCopyWriter({ apiBase: config.copy.apiBase, apiKey: config.copy.apiKey, model: config.copy.model })
      : new TemplateCopyWriter();

    return {
      meta,
      metaSandbox,
      pageId: m.pageId ?? DEFAULT_PAGE_ID,
      images,
      pixabaySandbox,
      copy,
      async close() {
        for (const close of closers.reverse()) await close();
      },
    };
  } catch (e) {
    for (const close of closers.reverse()) await close();
    throw e;
  }
}
