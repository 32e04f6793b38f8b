// Campaigns area: image and copy suggestions, the creator's multipart form (streamed with
// busboy under limits, image checked by its bytes), Meta metrics, local records, and the
// sandbox's bundled images (public, so <img> tags can load them).
import type Router from '@koa/router';
import busboy from 'busboy';
import { CAMPAIGN_FIELD_LABELS, CAMPAIGN_FORM_FIELDS, CampaignForm, MAX_IMAGE_BYTES, campaignFormDetail, contract, type Route } from '@adops/core';
import { actorOf, bind, type Ctx, type Handler, type HttpServices } from '../http.js';
import { httpError } from '../errors.js';
import { sendExport } from '../http-export.js';
import { sniffImageType } from '../providers/http.js';
import { bundledImages, SANDBOX_IMAGE_NAME, SANDBOX_IMAGE_PATH } from '../sandbox/pixabay-images.js';

/** The whole form: the image plus room for the text fields and multipart framing. */
const MAX_FORM_BYTES = MAX_IMAGE_BYTES + 256 * 1024;
const TOO_BIG = 'La imagen supera el máximo de 8 MB';
const FIELDS = new Set<string>(CAMPAIGN_FORM_FIELDS);
/** A field of the form by the creator's name for it (only the form's own fields get here). */
const labelOf = (name: string) => CAMPAIGN_FIELD_LABELS[name as keyof typeof CAMPAIGN_FIELD_LABELS] ?? name;

interface CampaignUpload {
  fields: Record<string, string>;
  image: Buffer | null;
}

/** Streams the multipart body: text fields of the form and at most one `image` file. */
function readCampaignForm(ctx: Ctx): Promise<CampaignUpload> {
  const type = ctx.get('content-type');
  if (!/^multipart\/form-data;.*boundary=/i.test(type)) throw httpError(415, 'El formulario debe enviarse como multipart/form-data');
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_FORM_BYTES) {
    ctx.set('Connection', 'close');
    throw httpError(413, TOO_BIG);
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: ctx.req.headers,
        defParamCharset: 'utf8',
        // busboy flags 'limit' on reaching fileSize: one byte more than the largest accepted image.
        limits: { fileSize: MAX_IMAGE_BYTES + 1, files: 1, fields: 30, parts: 32, fieldSize: 8 * 1024, fieldNameSize: 100, headerPairs: 20 },
      });
    } catch {
      reject(httpError(400, 'Formulario multipart mal formado'));
      return;
    }
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let problem: Error | null = null;
    let received = 0;
    let done = false;
    const note = (e: Error) => {
      problem ??= e;
    };
    const finish = (e: Error | null) => {
      if (done) return;
      done = true;
      ctx.req.off('data', count);
      if (e) {
        // Stop reading; the connection closes after the answer (no draining of a huge body).
        ctx.req.unpipe(bb);
        bb.destroy();
        reject(e);
      } else if (problem) reject(problem);
      else resolve({ fields, image: chunks.length ? Buffer.concat(chunks) : null });
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_FORM_BYTES) {
        ctx.set('Connection', 'close');
        finish(httpError(413, TOO_BIG));
      }
    };
    bb.on('field', (name, value, info) => {
      // Fields the form does not have are ignored (a truncated name is never one of them).
      if (info.nameTruncated || !FIELDS.has(name)) return;
      if (info.valueTruncated) return note(httpError(400, `${labelOf(name)}: es demasiado largo`));
      if (name in fields) return note(httpError(400, `${labelOf(name)}: el campo está repetido`));
      fields[name] = value;
    });
    bb.on('file', (name, stream) => {
      // A body that ends mid-file errors the part too; the form's own error answers it.
      stream.on('error', () => undefined);
      if (name !== 'image') {
        note(httpError(400, `Archivo no esperado en el campo ${name.slice(0, 100)}`));
        stream.resume();
        return;
      }
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => note(httpError(413, TOO_BIG)));
    });
    bb.on('filesLimit', () => note(httpError(400, 'Solo se admite una imagen')));
    bb.on('fieldsLimit', () => note(httpError(400, 'El formulario tiene demasiados campos')));
    bb.on('partsLimit', () => note(httpError(400, 'El formulario tiene demasiadas partes')));
    bb.on('error', () => finish(httpError(400, 'Formulario multipart mal formado')));
    bb.on('close', () => finish(null));
    ctx.req.on('data', count);
    ctx.req.on('aborted', () => finish(httpError(400, 'Petición interrumpida')));
    ctx.req.pipe(bb);
  });
}

/** This server's origin as the caller addressed it (Koa 3's ctx.origin is the Origin header). */
function serverOrigin(ctx: Ctx): string {
  try {
    return new URL(`${ctx.protocol}://${ctx.host}`).origin;
  } catch {
    throw httpError(400, 'Cabecera Host no válida');
  }
}

export function campaignRoutes(router: Router, s: HttpServices): void {
  const r = contract.campaigns;

  // The spec's paths end in '/'; the same routes answer without it too.
  const both = <R extends Route>(route: R, handler: Handler<R>) => {
    bind(router, s.guards, route, handler);
    bind(router, s.guards, { ...route, path: route.path.replace(/\/$/, '') }, handler);
  };

  both(r.imageSuggestions, ({ query, page }, ctx) => s.campaigns.suggestImages(query, page, serverOrigin(ctx)));

  both(r.generateCopy, ({ keyword }) => s.campaigns.suggestCopy(keyword));

  both(r.create, async (_input, ctx) => {
    const upload = await readCampaignForm(ctx);
    const form = CampaignForm.safeParse(upload.fields);
    if (!form.success) throw httpError(400, campaignFormDetail(form.error));
    if (upload.image && upload.image.length > 0 && !sniffImageType(upload.image)) throw httpError(400, 'La imagen debe ser JPEG, PNG o WebP');
    const created = await s.campaigns.create({
      form: form.data,
      // A file input left empty arrives as an empty part: no image.
      image: upload.image && upload.image.length > 0 ? upload.image : null,
      createdBy: ctx.state.user!.email,
      origin: serverOrigin(ctx),
    });
    const { keyword, headline, objective, daily_budget, bid_amount } = form.data;
    await s.audit.record(actorOf(ctx), {
      action: 'campaign.create',
      target: { kind: 'campaign', id: created.campaign_id, label: keyword },
      after: { ...created, keyword, headline, objective, daily_budget, bid_amount },
    });
    ctx.status = 201;
    return created;
  });

  bind(router, s.guards, r.budgetLimits, () => s.campaigns.budgetLimits());

  bind(router, s.guards, r.insights, async ({ sort, page, page_size, format, csv, ...q }, ctx) => {
    const request = { sort, page, page_size, format, csv };
    if (format === 'json') return s.campaigns.insightsTable(q, request);
    await sendExport(ctx, { format, csv }, await s.campaigns.insightsExport(q, request));
  });

  bind(router, s.guards, r.list, () => s.campaigns.list());

  // The Pixabay sandbox's suggestions point here; absent when Pixabay is configured.
  if (s.campaigns.providers.pixabaySandbox) {
    router.get(`${SANDBOX_IMAGE_PATH}:file`, async (ctx) => {
      const file = ctx.params.file;
      const image = SANDBOX_IMAGE_NAME.test(file) ? (await bundledImages()).find((i) => i.file === file) : undefined;
      if (!image) throw httpError(404, 'No encontrado');
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.type = image.type;
      ctx.body = image.bytes;
    });
  }
}
