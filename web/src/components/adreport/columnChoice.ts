// Which columns of a wide table the user chose to see, remembered in this browser
// (localStorage): the hidden keys are kept, so a column added later shows by default.
import { useCallback, useState } from 'react';

/** The hidden keys a stored text names (only known, hideable keys; anything unreadable hides nothing). */
export function parseHidden(text: string | null, known: readonly string[]): Set<string> {
  if (!text) return new Set();
  try {
    const list: unknown = JSON.parse(text);
    return new Set(Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string' && known.includes(k)) : []);
  } catch {
    return new Set();
  }
}

/** Shows or hides one column; the last visible column of the choosable ones cannot be hidden. */
export function toggleHidden(hidden: ReadonlySet<string>, key: string, choosable: readonly string[]): Set<string> {
  const next = new Set(hidden);
  if (next.has(key)) next.delete(key);
  else if (choosable.some((k) => k !== key && !next.has(k))) next.add(key);
  return next;
}

function readStored(storageKey: string): string | null {
  try {
    return window.localStorage.getItem(storageKey);
  } catch {
    return null;
  }
}

/** The hidden columns of a table, remembered under storageKey. */
export function useHiddenColumns(storageKey: string, choosable: readonly string[]): [ReadonlySet<string>, (key: string) => void, () => void] {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => parseHidden(readStored(storageKey), choosable));
  const save = (next: ReadonlySet<string>) => {
    try {
      if (next.size === 0) window.localStorage.removeItem(storageKey);
      else window.localStorage.setItem(storageKey, JSON.stringify([...next]));
    } catch {
      /* private mode: the choice lasts this visit */
    }
    return next;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: storage key and columns are fixed per table
  const toggle = useCallback((key: string) => setHidden((h) => save(toggleHidden(h, key, choosable))), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: storage key is fixed per table
  const showAll = useCallback(() => setHidden(save(new Set())), []);
  return [hidden, toggle, showAll];
}
