// The nav's bell: how many alerts fired since the user last opened Alertas (read every 30 s and
// whenever the page marks them read), linking to /alerts.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useApi } from '../hooks/useApi';

/** Dispatched on window when the alerts were marked read: the bell reads its count again. */
export const ALERTS_READ_EVENT = 'adops:alerts-read';
const EVERY_MS = 30_000;

export function AlertBell() {
  const api = useApi();
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    let alive = true;
    const load = () =>
      api.alerts.unread().then(
        (r) => alive && setUnread(r.unread),
        () => undefined,
      );
    void load();
    const timer = setInterval(load, EVERY_MS);
    window.addEventListener(ALERTS_READ_EVENT, load);
    return () => {
      alive = false;
      clearInterval(timer);
      window.removeEventListener(ALERTS_READ_EVENT, load);
    };
  }, [api]);
  const label = unread > 0 ? `Alertas: ${unread} sin leer` : 'Alertas';
  return (
    <Link
      to="/alerts"
      aria-label={label}
      title={label}
      data-testid="alert-bell"
      className="relative inline-flex rounded-md p-2 text-gray-600 hover:bg-gray-100 hover:text-gray-900"
    >
      <svg className="h-5 w-5" fill="none" viewBox="0 0 24 24" stroke="currentColor" strokeWidth={1.5} aria-hidden>
        <path
          strokeLinecap="round"
          strokeLinejoin="round"
          d="M14.857 17.082a23.848 23.848 0 005.454-1.31A8.967 8.967 0 0118 9.75V9A6 6 0 006 9v.75a8.967 8.967 0 01-2.312 6.022c1.733.64 3.56 1.085 5.455 1.31m5.714 0a24.255 24.255 0 01-5.714 0m5.714 0a3 3 0 11-5.714 0"
        />
      </svg>
      {unread > 0 && (
        <span
          data-testid="alert-bell-count"
          className="absolute -right-0.5 -top-0.5 inline-flex min-w-[1.1rem] items-center justify-center rounded-full bg-red-600 px-1 text-[10px] font-bold leading-4 text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
