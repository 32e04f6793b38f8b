// A feedback message that vanishes by itself (SPEC §9: 3 s for messages, 2 s for "copied").
import { useCallback, useEffect, useRef, useState } from 'react';

export function useFlash<T = string>(ms = 3000): [T | null, (value: T | null) => void] {
  const [value, setValue] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const show = useCallback(
    (next: T | null) => {
      clearTimeout(timer.current);
      setValue(next);
      if (next !== null) timer.current = setTimeout(() => setValue(null), ms);
    },
    [ms],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return [value, show];
}
