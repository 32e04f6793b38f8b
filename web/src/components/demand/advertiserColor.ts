// Each advertiser's fixed brand colour on the Demand charts: the three fixed advertisers take
// the first three palette colours; any other name hashes onto the rest, so it never changes.
import { FIXED_ADVERTISERS } from '@adops/core';

/** Tremor colour names (Tailwind palettes), in the order they are handed out. */
export const ADVERTISER_PALETTE = [
  'blue',
  'emerald',
  'amber',
  'violet',
  'rose',
  'cyan',
  'orange',
  'indigo',
  'teal',
  'fuchsia',
  'lime',
  'sky',
] as const;
export type PaletteColor = (typeof ADVERTISER_PALETTE)[number];

export interface AdvertiserColors {
  base: PaletteColor;
  /** The revenue bar (the brand colour). */
  revenue: string;
  /** The margin bar: a lighter tint of the same colour. */
  margin: string;
}

/** FNV-1a over the UTF-16 code units: a stable 32-bit hash of a name. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function advertiserColor(name: string): AdvertiserColors {
  const fixed = (FIXED_ADVERTISERS as readonly string[]).indexOf(name);
  const rest = ADVERTISER_PALETTE.length - FIXED_ADVERTISERS.length;
  const index = fixed >= 0 ? fixed : FIXED_ADVERTISERS.length + (hash(name) % rest);
  const base = ADVERTISER_PALETTE[index];
  return { base, revenue: `${base}-600`, margin: `${base}-300` };
}
