// 'Probar en el pasado' as state: the chosen days (7, 14 or 30; 14 at first), one run at a time
// (a new run aborts the one before, leaving the page aborts it), busy while it runs, its answer or
// its error. `what` names what was replayed (the form's spec), so a form can tell a stale answer.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AlertBacktest, BacktestDays } from '@adops/core';

export interface BacktestState {
  days: BacktestDays;
  setDays: (days: BacktestDays) => void;
  busy: boolean;
  data: AlertBacktest | null;
  error: unknown;
  /** What the shown answer replayed (the `what` its run was given). */
  ran: string | null;
  start: (run: (days: BacktestDays, signal: AbortSignal) => Promise<AlertBacktest>, what?: string) => void;
}

export function useBacktest(): BacktestState {
  const [days, setDays] = useState<BacktestDays>(14);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ data: AlertBacktest | null; error: unknown; ran: string | null }>({ data: null, error: null, ran: null });
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);
  const start = useCallback<BacktestState['start']>(
    (run, what = '') => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      setBusy(true);
      run(days, controller.signal).then(
        (data) => {
          if (controller.signal.aborted) return;
          setAnswer({ data, error: null, ran: what });
          setBusy(false);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setAnswer({ data: null, error, ran: what });
          setBusy(false);
        },
      );
    },
    [days],
  );
  return { days, setDays, busy, ...answer, start };
}
