// Status marks as SVG icons: emoji render as empty boxes on a system without an emoji font.
// Each icon keeps its emoji as its text (<title>) so the wording SPEC gives ('✅ Copiado',
// '❌ …') stays the same for screen readers, copy-paste and tests; only the drawing changes.
import type { ReactNode } from 'react';

export type Mark = 'ok' | 'error' | 'blocked' | 'warning';

const EMOJI: Record<Mark, string> = { ok: '✅', error: '❌', blocked: '⛔', warning: '⚠️' };
const COLOUR: Record<Mark, string> = { ok: 'text-green-700', error: 'text-red-600', blocked: 'text-red-600', warning: 'text-amber-500' };
const PATHS: Record<Mark, ReactNode> = {
  ok: (
    <path
      fillRule="evenodd"
      d="M10 18a8 8 0 100-16 8 8 0 000 16zm3.86-9.81a.75.75 0 00-1.22-.88l-3.24 4.5-1.62-1.62a.75.75 0 00-1.06 1.06l2.25 2.25a.75.75 0 001.14-.09l3.75-5.22z"
      clipRule="evenodd"
    />
  ),
  error: (
    <path
      fillRule="evenodd"
      d="M10 18a8 8 0 100-16 8 8 0 000 16zM8.28 7.22a.75.75 0 00-1.06 1.06L8.94 10l-1.72 1.72a.75.75 0 101.06 1.06L10 11.06l1.72 1.72a.75.75 0 101.06-1.06L11.06 10l1.72-1.72a.75.75 0 00-1.06-1.06L10 8.94 8.28 7.22z"
      clipRule="evenodd"
    />
  ),
  blocked: <path fillRule="evenodd" d="M10 18a8 8 0 100-16 8 8 0 000 16zM6.75 9.25a.75.75 0 000 1.5h6.5a.75.75 0 000-1.5h-6.5z" clipRule="evenodd" />,
  warning: (
    <path
      fillRule="evenodd"
      d="M8.485 2.495c.673-1.167 2.357-1.167 3.03 0l6.28 10.875c.673 1.167-.17 2.625-1.516 2.625H3.72c-1.347 0-2.189-1.458-1.515-2.625L8.485 2.495zM10 6a.75.75 0 01.75.75v3.5a.75.75 0 01-1.5 0v-3.5A.75.75 0 0110 6zm0 9a1 1 0 100-2 1 1 0 000 2z"
      clipRule="evenodd"
    />
  ),
};

/** One mark as an icon; `label` names it for assistive technology (default: its emoji). */
export function MarkIcon({ mark, label, className = '' }: { mark: Mark; label?: string; className?: string }) {
  return (
    <svg
      role="img"
      aria-label={label ?? EMOJI[mark]}
      viewBox="0 0 20 20"
      fill="currentColor"
      className={`inline-block h-4 w-4 flex-none align-[-0.15em] ${COLOUR[mark]} ${className}`}
    >
      <title>{EMOJI[mark]}</title>
      {PATHS[mark]}
    </svg>
  );
}

const LEADING: ReadonlyArray<[string, Mark]> = [
  ['✅', 'ok'],
  ['❌', 'error'],
  ['⛔', 'blocked'],
  ['⚠️', 'warning'],
  ['⚠', 'warning'],
];

/** A message whose leading emoji mark ('✅ Copiado', '❌ …') is drawn as its icon. */
export function MarkedText({ text }: { text: string }) {
  for (const [emoji, mark] of LEADING) {
    if (!text.startsWith(emoji)) continue;
    return (
      <span className="inline-flex items-center">
        <MarkIcon mark={mark} className="mr-1.5" /> <span>{text.slice(emoji.length).trimStart()}</span>
      </span>
    );
  }
  return <>{text}</>;
}
