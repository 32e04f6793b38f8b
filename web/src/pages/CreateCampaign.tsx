// 'Crear Campaña en Facebook' (SPEC §2, §5, §8, §9): keyword with suggested copy and images,
// the ad's texts, destination (tracking URL from alias and keyword), budget and bid in the ad
// account's currency (typed the Spanish way, checked against its limits, confirmed when high)
// and objective; sent as a multipart form; success shows the ad's preview with Meta's ids.
import { CheckedForm } from '../components/CheckedForm';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  CAMPAIGN_DEFAULTS,
  CAMPAIGN_FIELD_LABELS,
  IMAGE_REQUIRED_MESSAGE,
  OBJECTIVES,
  amountForWire,
  budgetConfirmation,
  budgetInNetworkCurrency,
  todayIn,
  budgetNeedsConfirmation,
  budgetProblem,
  campaignFormData,
  maxBid,
  readAmount,
  trackingUrl,
  type BudgetLimits,
  type CampaignFormInput,
  type CreatedCampaign,
  type Objective,
  type SuggestedCopy,
} from '@adops/core';
import { useApi } from '../hooks/useApi';
import { networkCurrency } from '../lib/currency';
import { reportingTimeZone } from '../lib/timezone';
import { useAsync } from '../hooks/useAsync';
import { useFlash } from '../hooks/useFlash';
import { readToken } from '../lib/session';
import { errorText } from '../lib/errors';
import { Card } from '../components/Card';
import { inputClass, primaryButton, secondaryButton } from '../components/styles';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { AdPreview } from '../components/campaigns/AdPreview';
import { CreatedDialog } from '../components/campaigns/CreatedDialog';
import { ImagePicker, chosenImageUrl, type ChosenImage } from '../components/campaigns/ImagePicker';
import { useSuggestions } from '../components/campaigns/useSuggestions';
import { MarkedText } from '../components/icons';
import { AdTextCard } from '../components/campaigns/AdTextCard';
import {
  type AmountField,
  amountError,
  BACKEND_ERROR,
  backendError,
  type Feedback,
  type FormState,
  initialForm,
  OBJECTIVE_LABELS,
  pageNameOf,
  say,
} from '../components/campaigns/campaignForm';
import { DestinationCard } from '../components/campaigns/DestinationCard';
import { Field } from '../components/campaigns/Field';

const NO_TOKEN = 'No se encontró el token. Inicia sesión nuevamente.';
const COPY_FAILED = 'Error: no se pudo copiar la URL. Asegúrate de que la pestaña esté activa.';

export default function CreateCampaign() {
  const api = useApi();
  const [publicSite, setPublicSite] = useState('');
  const [form, setForm] = useState<FormState>(() => initialForm(''));
  const [image, setImage] = useState<ChosenImage | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ campaign: CreatedCampaign; pageName: string; imageUrl: string | null } | null>(null);
  const [createdFlash, flashCreated] = useFlash<string>(3000);
  const [copiedFlash, flashCopied] = useFlash<Feedback>(3000);
  /** A failed copy stays said until the next try (a success fades after 3 s). */
  const [copyFailed, setCopyFailed] = useState(false);
  const copied: Feedback | null = copiedFlash ?? (copyFailed ? { ok: false, text: COPY_FAILED } : null);
  // The ad account's currency and what it takes (Meta's minimum, the server's cap and confirmation threshold).
  const limits = useAsync((signal) => api.campaigns.budgetLimits(undefined, { signal }), [api]);
  // The month's exchange rates (Rentabilidad's): the budget is also said in the network's currency.
  const rates = useAsync((signal) => api.profit.rates(undefined, { signal }), [api]);
  const [touched, setTouched] = useState<Partial<Record<AmountField, boolean>>>({});
  const [confirming, setConfirming] = useState<{ daily_budget: number; limits: BudgetLimits; values: CampaignFormInput } | null>(null);
  const budgetInput = useRef<HTMLInputElement>(null);
  const bidInput = useRef<HTMLInputElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  /** Where the focus goes when the confirmation closes: the budget to review, or the submit button. */
  const afterConfirmation = useRef<HTMLElement | null>(null);

  // The tracking URL starts from the provider's public site unless another base is typed.
  useEffect(() => {
    const controller = new AbortController();
    api.health.check(undefined, { signal: controller.signal }).then(
      ({ public_site_url }) => {
        setPublicSite(public_site_url);
        setForm((f) => (f.base_url ? f : { ...f, base_url: public_site_url }));
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [api]);

  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) =>
      setForm((f) => ({ ...f, [key]: value }));

  const applyCopy = useCallback((copy: SuggestedCopy) => setForm((f) => ({ ...f, headline: copy.headline, body: copy.body, cta: copy.cta })), []);
  const suggestions = useSuggestions(form.keyword, applyCopy);

  // Object URLs of uploads are released when the image is replaced or the page closes.
  const uploadUrl = image?.kind === 'upload' ? image.url : null;
  const shownUrl = useRef<string | null>(null);
  useEffect(() => {
    shownUrl.current = uploadUrl;
  }, [uploadUrl]);
  useEffect(() => () => void (shownUrl.current && URL.revokeObjectURL(shownUrl.current)), []);

  function chooseImage(next: ChosenImage | null) {
    if (image?.kind === 'upload' && image.url !== chosenImageUrl(next)) URL.revokeObjectURL(image.url);
    setImage(next);
    if (next && error === IMAGE_REQUIRED_MESSAGE) setError(null);
  }

  let tracking: { url: string | null; problem: string | null };
  const base = form.base_url.trim() || publicSite;
  if (!form.alias.trim() || !form.keyword.trim()) tracking = { url: null, problem: 'Se genera a partir del alias y la keyword.' };
  else if (!base) tracking = { url: null, problem: 'Indica la URL base.' };
  else {
    try {
      tracking = { url: trackingUrl({ baseUrl: base, alias: form.alias, keyword: form.keyword }), problem: null };
    } catch {
      tracking = { url: null, problem: 'La URL base debe ser una URL http(s) válida.' };
    }
  }

  async function copyTrackingUrl(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopyFailed(false);
      flashCopied({ ok: true, text: '✅ Copiado' });
    } catch {
      flashCopied(null);
      setCopyFailed(true);
    }
  }

  const budgetReading = readAmount(form.daily_budget);
  const bidReading = readAmount(form.bid_amount);
  const account = limits.data;
  const currencyLabel = (label: string) => (account ? `${label} (${account.currency})` : label);
  /** The typed budget in the network's currency at this month's rate, when the account's is another and the rate is known. */
  const inNetwork =
    account && budgetReading.ok && rates.data
      ? budgetInNetworkCurrency(
          budgetReading.cents / 100,
          account.currency,
          networkCurrency(),
          rates.data.rates,
          todayIn(reportingTimeZone()).slice(0, 7),
        )
      : null;
  /** The typed daily budget when the account can take it (the bid's hint says the largest bid it allows). */
  const budgetTaken =
    account && budgetReading.ok && budgetProblem({ daily_budget: budgetReading.cents / 100, bid_amount: account.min_bid }, account) === null
      ? budgetReading.cents / 100
      : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (submitting) return;
    setError(null);
    setTouched({ daily_budget: true, bid_amount: true });
    if (!image) {
      setError(IMAGE_REQUIRED_MESSAGE);
      return;
    }
    if (!readToken()) {
      setError(NO_TOKEN);
      return;
    }
    for (const [field, reading, input] of [
      ['daily_budget', budgetReading, budgetInput],
      ['bid_amount', bidReading, bidInput],
    ] as const) {
      if (!reading.ok) {
        setError(`${CAMPAIGN_FIELD_LABELS[field]}: ${reading.problem}`);
        input.current?.focus();
        return;
      }
    }
    if (!budgetReading.ok || !bidReading.ok) return;
    const amounts = { daily_budget: budgetReading.cents / 100, bid_amount: bidReading.cents / 100 };
    setSubmitting(true);
    let known: BudgetLimits;
    try {
      known = account ?? (await api.campaigns.budgetLimits());
    } catch (err) {
      setError(backendError(err));
      setSubmitting(false);
      return;
    }
    // The server refuses the same way; said here before anything is sent.
    const problem = budgetProblem(amounts, known);
    if (problem) {
      setError(problem.message);
      setSubmitting(false);
      (problem.field === 'daily_budget' ? budgetInput : bidInput).current?.focus();
      return;
    }
    const values: CampaignFormInput = {
      ...form,
      daily_budget: amountForWire(budgetReading.cents),
      bid_amount: amountForWire(bidReading.cents),
      advantage_audience: CAMPAIGN_DEFAULTS.advantage_audience,
      image_url: image.kind === 'suggestion' ? image.suggestion.largeImageURL : undefined,
    };
    if (budgetNeedsConfirmation(amounts.daily_budget, known)) {
      setSubmitting(false);
      setConfirming({ daily_budget: amounts.daily_budget, limits: known, values });
      return;
    }
    await send(values);
  }

  async function send(values: CampaignFormInput) {
    if (!image) return;
    setSubmitting(true);
    try {
      const campaign = await api.campaigns.create(undefined, {
        rawBody: campaignFormData(values, image.kind === 'upload' ? image.file : null),
      });
      setCreated({
        campaign,
        pageName: pageNameOf(form.fb_page),
        // The uploaded file is already in the browser; Meta's copy may not be reachable from here.
        imageUrl: image.kind === 'upload' ? image.url : (campaign.preview.image_url ?? chosenImageUrl(image)),
      });
      flashCreated(`✅ Campaña creada (ID ${campaign.campaign_id})`);
    } catch (err) {
      setError(backendError(err));
    } finally {
      setSubmitting(false);
    }
  }

  /** 'Crear nueva campaña' or closing the preview: an empty form, no image, back to the top. */
  function startOver() {
    setCreated(null);
    chooseImage(null);
    setForm(initialForm(publicSite));
    setResetKey((k) => k + 1);
    setError(null);
    setTouched({});
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-gray-900">Crear Campaña en Facebook</h1>
          <p className="mt-1 text-sm text-gray-500">Escribe una keyword y te sugerimos el copy y las imágenes del anuncio.</p>
        </div>
        {createdFlash && (
          <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
            <MarkedText text={createdFlash} />
          </p>
        )}
      </div>

      <CheckedForm onSubmit={submit} aria-label="Crear campaña" className="grid items-start gap-6 lg:grid-cols-5 lg:grid-rows-[auto_1fr]">
        <div className="min-w-0 space-y-6 lg:col-span-3">
          <AdTextCard form={form} set={set} copy={suggestions.copy} />

          <DestinationCard
            form={form}
            set={set}
            publicSite={publicSite}
            tracking={tracking}
            onCopy={copyTrackingUrl}
            copied={created ? null : copied}
          />

          <Card title="Campaña">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Página de Facebook (fb_page)" hint="Vacío: la página configurada por defecto.">
                {(id) => (
                  <input
                    id={id}
                    inputMode="numeric"
                    pattern="\d{1,30}"
                    title="El id numérico de la página"
                    value={form.fb_page}
                    onChange={(e) => set('fb_page')(e.target.value)}
                    className={inputClass}
                    placeholder="Página por defecto"
                  />
                )}
              </Field>
              <Field label="Objetivo">
                {(id) => (
                  <select id={id} value={form.objective} onChange={(e) => set('objective')(e.target.value as Objective)} className={inputClass}>
                    {OBJECTIVES.map((o) => (
                      <option key={o} value={o}>
                        {OBJECTIVE_LABELS[o]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                label={currencyLabel('Presupuesto diario')}
                required
                error={amountError(budgetReading, touched.daily_budget)}
                hint={
                  account
                    ? `Con coma decimal (1,50). Entre ${say(account.min_daily_budget, account)} y ${say(account.max_daily_budget, account)} al día; por encima de ${say(account.confirm_daily_budget_above, account)} se pide confirmación.${inNetwork ? ` ${inNetwork}.` : ''}`
                    : 'Con coma decimal (1,50), en la moneda de la cuenta publicitaria.'
                }
              >
                {(id, describedBy) => (
                  <input
                    id={id}
                    ref={budgetInput}
                    type="text"
                    inputMode="decimal"
                    autoComplete="off"
                    spellCheck={false}
                    required
                    value={form.daily_budget}
                    onChange={(e) => set('daily_budget')(e.target.value)}
                    onBlur={() => setTouched((t) => ({ ...t, daily_budget: true }))}
                    aria-invalid={amountError(budgetReading, touched.daily_budget) ? true : undefined}
                    aria-describedby={describedBy}
                    className={inputClass}
                  />
                )}
              </Field>
              <Field
                label={currencyLabel('Puja CPC')}
                required
                error={amountError(bidReading, touched.bid_amount)}
                hint={
                  account && budgetTaken !== null
                    ? `Como mucho ${say(maxBid(budgetTaken, account), account)} con este presupuesto: Meta pide un presupuesto diario de al menos ${account.bid_budget_ratio} veces la puja.`
                    : 'Con coma decimal (0,05).'
                }
              >
                {(id, describedBy) => (
                  <input
                    id={id}
                    ref={bidInput}
                    type="text"
                    inputMode="decimal"
                    autoComplete="off"
                    spellCheck={false}
                    required
                    value={form.bid_amount}
                    onChange={(e) => set('bid_amount')(e.target.value)}
                    onBlur={() => setTouched((t) => ({ ...t, bid_amount: true }))}
                    aria-invalid={amountError(bidReading, touched.bid_amount) ? true : undefined}
                    aria-describedby={describedBy}
                    className={inputClass}
                  />
                )}
              </Field>
              {Boolean(limits.error) && (
                <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-red-600 sm:col-span-2">
                  <span>No se pudo leer la cuenta publicitaria de Meta: {errorText(limits.error, BACKEND_ERROR)}</span>
                  <button type="button" onClick={limits.reload} className={secondaryButton}>
                    Reintentar
                  </button>
                </div>
              )}
            </div>
          </Card>
        </div>

        <div className="min-w-0 space-y-6 lg:col-span-2 lg:row-span-2">
          <Card title="Imagen">
            <ImagePicker
              image={image}
              onChange={chooseImage}
              suggestions={suggestions.images}
              keywordReady={suggestions.ready}
              onRefresh={suggestions.refreshImages}
              resetKey={resetKey}
            />
          </Card>
          <Card title="Vista previa">
            <AdPreview
              pageName={pageNameOf(form.fb_page)}
              body={form.body}
              headline={form.headline}
              cta={form.cta}
              imageUrl={chosenImageUrl(image)}
              link={tracking.url ?? base}
            />
          </Card>
        </div>

        <div className="min-w-0 space-y-4 lg:col-span-3">
          <div className="flex flex-wrap items-center gap-4">
            <button ref={submitRef} type="submit" disabled={submitting} className={`${primaryButton} px-6`}>
              {submitting ? 'Creando...' : 'Crear campaña'}
            </button>
            <p className="text-xs text-gray-500">Se crea en pausa: campaña, conjunto de anuncios, creatividad y anuncio.</p>
          </div>
          {error && (
            <div role="alert" data-testid="create-result" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
              {error}
            </div>
          )}
        </div>
      </CheckedForm>

      {confirming && (
        <ConfirmDialog
          title={budgetConfirmation(confirming.daily_budget, confirming.limits).title}
          confirmLabel={`Sí, crear con ${say(confirming.daily_budget, confirming.limits)} al día`}
          cancelLabel="Revisar el importe"
          returnFocusTo={afterConfirmation}
          onCancel={() => {
            afterConfirmation.current = budgetInput.current;
            setConfirming(null);
          }}
          onConfirm={() => {
            afterConfirmation.current = submitRef.current;
            setConfirming(null);
            void send(confirming.values);
          }}
        >
          <p>{budgetConfirmation(confirming.daily_budget, confirming.limits).text}</p>
        </ConfirmDialog>
      )}

      {created && (
        <CreatedDialog
          created={created.campaign}
          pageName={created.pageName}
          imageUrl={created.imageUrl}
          onClose={startOver}
          onCopyTrackingUrl={() => copyTrackingUrl(created.campaign.tracking_url)}
          copied={copied}
        />
      )}
    </div>
  );
}
