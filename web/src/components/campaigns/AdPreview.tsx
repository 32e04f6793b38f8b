// A link ad drawn the way it appears in a Facebook feed: page, primary text, image, then the
// link bar with the domain, the headline and the call-to-action button.
import { CTA_LABELS, type CallToAction } from '@adops/core';

export interface AdPreviewProps {
  pageName: string;
  body: string;
  headline: string;
  cta: CallToAction;
  imageUrl: string | null;
  /** The ad's landing link; only its domain is shown. */
  link: string;
}

/** 'https://www.example.com/x?y' → 'WWW.EXAMPLE.COM'; '' when the link is not a URL. */
export function linkDomain(link: string): string {
  try {
    return new URL(link).hostname.toUpperCase();
  } catch {
    return '';
  }
}

export function AdPreview({ pageName, body, headline, cta, imageUrl, link }: AdPreviewProps) {
  const initial = pageName.trim().charAt(0).toUpperCase() || 'P';
  const domain = linkDomain(link);
  return (
    <article
      aria-label="Vista previa del anuncio"
      data-testid="ad-preview"
      className="overflow-hidden rounded-lg border border-gray-200 bg-white text-[15px] text-gray-900 shadow-sm"
    >
      <header className="flex items-center gap-2 px-3 pt-3">
        <span aria-hidden className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-blue-600 text-base font-semibold text-white">
          {initial}
        </span>
        <div className="min-w-0 leading-tight">
          <p data-testid="ad-page" className="truncate text-sm font-semibold">
            {pageName}
          </p>
          <p className="text-xs text-gray-500">
            Publicidad · <span aria-hidden>🌐</span>
          </p>
        </div>
        <span aria-hidden className="ml-auto self-start text-lg leading-none text-gray-400">
          ···
        </span>
      </header>
      <p data-testid="ad-body" className="whitespace-pre-wrap break-words px-3 py-2 text-sm">
        {body || <span className="text-gray-400">Texto principal del anuncio</span>}
      </p>
      <div className="aspect-[1.91/1] w-full bg-gray-100">
        {imageUrl ? (
          <img data-testid="ad-image" src={imageUrl} alt="Imagen del anuncio" className="h-full w-full object-cover" />
        ) : (
          <div className="flex h-full w-full items-center justify-center text-sm text-gray-400">Sin imagen</div>
        )}
      </div>
      <div className="flex items-center gap-3 border-t border-gray-200 bg-gray-100 px-3 py-2">
        <div className="min-w-0 flex-1">
          <p data-testid="ad-domain" className="truncate text-xs uppercase text-gray-500">
            {domain || '—'}
          </p>
          <p data-testid="ad-headline" className="truncate text-sm font-semibold">
            {headline || <span className="text-gray-400">Título del anuncio</span>}
          </p>
        </div>
        <span data-testid="ad-cta" className="shrink-0 rounded-md bg-gray-200 px-3 py-1.5 text-sm font-semibold text-gray-800">
          {CTA_LABELS[cta] ?? cta}
        </span>
      </div>
      <footer aria-hidden className="flex justify-around border-t border-gray-200 px-3 py-1.5 text-xs font-medium text-gray-500">
        <span>👍 Me gusta</span>
        <span>💬 Comentar</span>
        <span>↗ Compartir</span>
      </footer>
    </article>
  );
}
