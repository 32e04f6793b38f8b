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
            Publicidad ·{' '}
            <svg aria-hidden viewBox="0 0 20 20" fill="currentColor" className="inline-block h-3 w-3 align-[-0.1em]">
              <path
                fillRule="evenodd"
                d="M10 18a8 8 0 100-16 8 8 0 000 16zM4.33 8.5a5.99 5.99 0 013.02-4.04A9.5 9.5 0 006.5 8.5H4.33zm2.17 1.5H4.33a6 6 0 003.02 4.04A9.5 9.5 0 016.5 10zm1.5 0h4a8 8 0 01-2 5 8 8 0 01-2-5zm4-1.5H8a8 8 0 012-5 8 8 0 012 5zm1.5 1.5h2.17a6 6 0 01-3.02 4.04c.46-1.2.77-2.58.85-4.04zm2.17-1.5H13.5a9.5 9.5 0 00-.85-4.04 6 6 0 013.02 4.04z"
                clipRule="evenodd"
              />
            </svg>
          </p>
        </div>
        <span aria-hidden className="ml-auto self-start text-lg leading-none text-gray-500">
          ···
        </span>
      </header>
      <p data-testid="ad-body" className="whitespace-pre-wrap break-words px-3 py-2 text-sm">
        {body || <span className="text-gray-500">Texto principal del anuncio</span>}
      </p>
      <div className="aspect-[1.91/1] w-full bg-gray-100">
        {imageUrl ? (
          <img data-testid="ad-image" src={imageUrl} alt="Imagen del anuncio" className="h-full w-full object-cover" />
        ) : (
          <div className="flex h-full w-full items-center justify-center text-sm text-gray-600">Sin imagen</div>
        )}
      </div>
      <div className="flex items-center gap-3 border-t border-gray-200 bg-gray-100 px-3 py-2">
        <div className="min-w-0 flex-1">
          <p data-testid="ad-domain" className="truncate text-xs uppercase text-gray-600">
            {domain || '—'}
          </p>
          <p data-testid="ad-headline" className="truncate text-sm font-semibold">
            {headline || <span className="text-gray-600">Título del anuncio</span>}
          </p>
        </div>
        <span data-testid="ad-cta" className="shrink-0 rounded-md bg-gray-200 px-3 py-1.5 text-sm font-semibold text-gray-800">
          {CTA_LABELS[cta] ?? cta}
        </span>
      </div>
      <footer aria-hidden className="flex justify-around border-t border-gray-200 px-3 py-1.5 text-xs font-medium text-gray-500">
        <span>
          <svg aria-hidden viewBox="0 0 20 20" fill="currentColor" className="mr-1 inline-block h-3.5 w-3.5 align-[-0.15em]">
            <path d="M1 8.25a1.25 1.25 0 112.5 0v7.5a1.25 1.25 0 11-2.5 0v-7.5zM11 3V1.7c0-.268.14-.526.395-.607A2 2 0 0114 3c0 .995-.182 1.948-.514 2.826-.204.54.166 1.174.744 1.174h2.52c1.243 0 2.261 1.01 2.146 2.247a23.864 23.864 0 01-1.341 5.974C17.153 16.323 16.072 17 14.9 17h-3.192a3 3 0 01-1.341-.317l-2.734-1.366A3 3 0 006.292 15H5V8h.963c.685 0 1.258-.483 1.612-1.068a4.011 4.011 0 012.166-1.73c.432-.143.853-.386 1.011-.814.16-.432.248-.9.248-1.388z" />
          </svg>
          Me gusta
        </span>
        <span>
          <svg aria-hidden viewBox="0 0 20 20" fill="currentColor" className="mr-1 inline-block h-3.5 w-3.5 align-[-0.15em]">
            <path
              fillRule="evenodd"
              d="M10 2c-4.42 0-8 2.91-8 6.5 0 1.7.8 3.25 2.12 4.41-.2 1.22-.79 2.29-1.6 3.04a.5.5 0 00.35.86c1.77 0 3.27-.6 4.35-1.4.9.26 1.83.39 2.78.39 4.42 0 8-2.91 8-6.5S14.42 2 10 2z"
              clipRule="evenodd"
            />
          </svg>
          Comentar
        </span>
        <span>↗ Compartir</span>
      </footer>
    </article>
  );
}
