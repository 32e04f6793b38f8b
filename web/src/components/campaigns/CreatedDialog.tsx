// The dialog after a campaign is created: the ad as it will look in the feed, the ids Meta
// gave it and the tracking URL; 'Crear nueva campaña', 'Cerrar', × or Escape all close it, and
// Tab stays inside it while it is open.
import { useRef } from 'react';
import { useModal } from '../useModal';
import { createPortal } from 'react-dom';
import type { CreatedCampaign } from '@adops/core';
import { AdPreview } from './AdPreview';
import { primaryButton, secondaryButton } from '../styles';
import { MarkedText } from '../icons';

export interface CreatedDialogProps {
  created: CreatedCampaign;
  pageName: string;
  /** The image to show (the uploaded file's local URL or the suggestion's). */
  imageUrl: string | null;
  onClose: () => void;
  onCopyTrackingUrl: () => void;
  /** Outcome of the last copy (vanishes by itself). */
  copied: { ok: boolean; text: string } | null;
}

export function CreatedDialog({ created, pageName, imageUrl, onClose, onCopyTrackingUrl, copied }: CreatedDialogProps) {
  const box = useRef<HTMLDivElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  useModal({ box, initialFocus: primary, onClose });

  const ids: Array<[string, string]> = [
    ['Campaña', created.campaign_id],
    ['Conjunto de anuncios', created.adset_id],
    ['Anuncio', created.ad_id],
    ['Creatividad', created.creative_id],
    ['Hash de la imagen', created.image_hash],
  ];

  // On <body>, out of the page's layout (its spacing utilities would offset a fixed overlay).
  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a mouse shortcut; Escape, Cerrar and × close it from the keyboard
    <div
      className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-gray-900/60 p-4 sm:items-center"
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}
    >
      <div ref={box} role="dialog" aria-modal="true" aria-labelledby="created-title" className="w-full max-w-4xl rounded-lg bg-white shadow-xl">
        <header className="flex items-center justify-between border-b border-gray-200 px-5 py-4">
          <h2 id="created-title" className="text-lg font-semibold text-gray-900">
            <MarkedText text="✅ Campaña creada" />
          </h2>
          <button
            type="button"
            aria-label="Cerrar vista previa"
            onClick={onClose}
            className="rounded-md p-1 text-2xl leading-none text-gray-500 hover:bg-gray-100 hover:text-gray-700"
          >
            ×
          </button>
        </header>
        <div className="grid gap-6 px-5 py-5 md:grid-cols-2">
          <div className="mx-auto w-full max-w-md">
            <AdPreview
              pageName={pageName}
              body={created.preview.body}
              headline={created.preview.headline}
              cta={created.preview.cta}
              imageUrl={imageUrl}
              link={created.preview.link}
            />
          </div>
          <div className="min-w-0 space-y-4 text-sm">
            <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-800">
              La campaña, el conjunto de anuncios y el anuncio se crearon <strong>en pausa</strong>: actívalos en Meta cuando quieras publicarlos.
            </p>
            <dl className="divide-y divide-gray-100 rounded-md border border-gray-200">
              {ids.map(([label, value]) => (
                <div key={label} className="flex items-center justify-between gap-3 px-3 py-2">
                  <dt className="whitespace-nowrap text-gray-500">{label}</dt>
                  <dd data-testid={`created-${label}`} className="min-w-0 truncate font-mono text-gray-900" title={value}>
                    {value}
                  </dd>
                </div>
              ))}
            </dl>
            <div>
              <p className="mb-1 font-medium text-gray-700">URL de seguimiento</p>
              <p data-testid="created-tracking-url" className="break-all rounded-md bg-gray-50 px-3 py-2 font-mono text-xs text-gray-700">
                {created.tracking_url}
              </p>
              <div className="mt-2 flex items-center gap-3">
                <button type="button" onClick={onCopyTrackingUrl} className={secondaryButton}>
                  Copiar URL
                </button>
                {copied && (
                  <span role={copied.ok ? 'status' : 'alert'} className={`text-sm ${copied.ok ? 'text-green-700' : 'text-red-600'}`}>
                    <MarkedText text={copied.text} />
                  </span>
                )}
              </div>
            </div>
          </div>
        </div>
        <footer className="flex justify-end gap-3 border-t border-gray-200 px-5 py-4">
          <button type="button" onClick={onClose} className={secondaryButton}>
            Cerrar
          </button>
          <button ref={primary} type="button" onClick={onClose} className={primaryButton}>
            Crear nueva campaña
          </button>
        </footer>
      </div>
    </div>,
    document.body,
  );
}
