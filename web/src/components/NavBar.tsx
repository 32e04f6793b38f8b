// The navigation shell (SPEC §2): report links, the Media Buying dropdown, Users for
// admins, the user menu; only 'Login' when signed out; a hamburger menu below md.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useSession } from '../hooks/useSession';
import { Avatar } from './Avatar';
import { linkClass, NavFrame, SignedOutNav } from './NavFrame';
import { AlertBell } from './AlertBell';

const MAIN_LINKS = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/ad-report', label: 'Ad Report' },
  { to: '/demand', label: 'Demand' },
  { to: '/referrers', label: 'Refs' },
  { to: '/logs', label: 'Logs' },
  { to: '/finance', label: 'Finance' },
  { to: '/alerts', label: 'Alertas' },
];
/** The admin area: users and tokens, and the audit trail. */
const ADMIN_LINKS = [
  { to: '/admin-users', label: 'Users' },
  { to: '/admin/audit', label: 'Auditoría' },
];
const MEDIA_BUYING = [
  { to: '/create-campaigns', label: 'Fb Creator' },
  { to: '/fb-campaigns', label: 'Fb Campaigns' },
  { to: '/profit', label: 'Rentabilidad' },
];

/** Closes a popover on a click outside its container. */
function useOutsideClose(open: boolean, close: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, close]);
  return ref;
}

/** The open menu's items, in order. */
const itemsOf = (menu: HTMLElement | null) => [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

/**
 * A menu button (WAI-ARIA menu button pattern): Enter, Space or ArrowDown open it on its first
 * item, ArrowUp on its last; ArrowDown/ArrowUp move round the items, Home/End to either end;
 * Escape closes it and gives focus back to the button; Tab or a click outside closes it.
 */
function Dropdown({
  label,
  children,
  align = 'left',
  testId,
}: {
  label: ReactNode;
  children: (close: () => void) => ReactNode;
  align?: 'left' | 'right';
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  // Which item takes focus once the menu is drawn: the first, the last, or none (opened by a click).
  const [focusOn, setFocusOn] = useState<'first' | 'last' | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = () => setOpen(false);
  const ref = useOutsideClose(open, close);
  useEffect(() => {
    if (!open || !focusOn) return;
    const items = itemsOf(menu.current);
    (focusOn === 'first' ? items[0] : items[items.length - 1])?.focus();
  }, [open, focusOn]);

  const openOn = (where: 'first' | 'last' | null) => {
    setFocusOn(where);
    setOpen(true);
  };
  const onButtonKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openOn('first');
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      openOn('last');
    } else if (e.key === 'Escape' && open) close();
  };
  const onMenuKey = (e: React.KeyboardEvent) => {
    const items = itemsOf(menu.current);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      e.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at < 0 ? items.length - 1 : at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(items.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      close();
      button.current?.focus();
    } else if (e.key === 'Tab') close();
  };
  return (
    <div className="relative" ref={ref} data-testid={testId}>
      <button
        ref={button}
        id={`${id}-button`}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? close() : openOn(null))}
        onKeyDown={onButtonKey}
        className="inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-gray-600 hover:bg-gray-100 hover:text-gray-900"
      >
        {label}
        <svg className="h-4 w-4" viewBox="0 0 20 20" fill="currentColor" aria-hidden>
          <path
            fillRule="evenodd"
            d="M5.23 7.21a.75.75 0 011.06.02L10 11.17l3.71-3.94a.75.75 0 111.08 1.04l-4.25 4.5a.75.75 0 01-1.08 0l-4.25-4.5a.75.75 0 01.02-1.06z"
            clipRule="evenodd"
          />
        </svg>
      </button>
      {open && (
        <div
          ref={menu}
          id={`${id}-menu`}
          role="menu"
          aria-labelledby={`${id}-button`}
          tabIndex={-1}
          onKeyDown={onMenuKey}
          className={`absolute z-30 mt-1 min-w-[12rem] rounded-md border border-gray-200 bg-white py-1 shadow-lg ${align === 'right' ? 'right-0' : 'left-0'}`}
        >
          {children(close)}
        </div>
      )}
    </div>
  );
}

const menuItem = 'block w-full px-4 py-2 text-left text-sm text-gray-700 hover:bg-gray-100';

function UserMenu({ email, onSignOut }: { email: string; onSignOut: () => void }) {
  return (
    <Dropdown
      testId="user-menu"
      align="right"
      label={
        // Named from its text at every width (the phone shows the avatar alone): 'Menú de usuario de ana@…'.
        <span className="flex items-center gap-2">
          <Avatar email={email} />
          <span className="sr-only">Menú de usuario de</span>
          <span className="sr-only lg:not-sr-only lg:max-w-[14rem] lg:truncate">{email}</span>
        </span>
      }
    >
      {(close) => (
        <>
          <div className="border-b border-gray-100 px-4 py-2 text-xs text-gray-500">
            Sesión iniciada como
            <div className="truncate text-sm font-medium text-gray-900">{email}</div>
          </div>
          <Link role="menuitem" to="/change-password" className={menuItem} onClick={close}>
            Cambiar contraseña
          </Link>
          <button
            role="menuitem"
            type="button"
            className={`${menuItem} text-red-600`}
            onClick={() => {
              close();
              onSignOut();
            }}
          >
            Cerrar sesión
          </button>
        </>
      )}
    </Dropdown>
  );
}

export function NavBar() {
  const { user, signOut } = useSession();
  const [mobileOpen, setMobileOpen] = useState(false);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the mobile menu closes whenever the page changes
  useEffect(() => setMobileOpen(false), [location.pathname]);
  // A link to the page already shown changes no path: the menu closes on the click itself.
  const closeMobile = () => setMobileOpen(false);
  const hamburger = useRef<HTMLButtonElement>(null);
  // Escape closes the phone's menu from any of its links, back on the button that opened it.
  const onMobileKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    closeMobile();
    hamburger.current?.focus();
  };

  const links = user ? [...MAIN_LINKS, ...(user.is_admin ? ADMIN_LINKS : [])] : [];

  if (!user) return <SignedOutNav />;
  return (
    <NavFrame
      home="/dashboard"
      below={
        mobileOpen && (
          <nav id="mobile-menu" aria-label="Menú" onKeyDown={onMobileKey} className="border-t border-gray-200 bg-white px-4 py-3 md:hidden">
            <div className="flex flex-col gap-1">
              {links.map((l) => (
                <NavLink key={l.to} to={l.to} className={linkClass} onClick={closeMobile}>
                  {l.label}
                </NavLink>
              ))}
              <div className="mt-2 px-3 text-xs font-semibold uppercase tracking-wide text-gray-500">Media Buying</div>
              {MEDIA_BUYING.map((l) => (
                <NavLink key={l.to} to={l.to} className={linkClass} onClick={closeMobile}>
                  {l.label}
                </NavLink>
              ))}
            </div>
          </nav>
        )
      }
    >
      <div className="hidden flex-1 items-center gap-1 md:flex">
        {MAIN_LINKS.map((l) => (
          <NavLink key={l.to} to={l.to} className={linkClass}>
            {l.label}
          </NavLink>
        ))}
        <Dropdown label="Media Buying">
          {(close) =>
            MEDIA_BUYING.map((l) => (
              <Link key={l.to} role="menuitem" to={l.to} className={menuItem} onClick={close}>
                {l.label}
              </Link>
            ))
          }
        </Dropdown>
        {user.is_admin &&
          ADMIN_LINKS.map((l) => (
            <NavLink key={l.to} to={l.to} className={linkClass}>
              {l.label}
            </NavLink>
          ))}
      </div>
      <div className="flex items-center gap-2">
        <AlertBell />
        <UserMenu email={user.email} onSignOut={signOut} />
        <button
          ref={hamburger}
          type="button"
          className="inline-flex items-center justify-center rounded-md p-2 text-gray-600 hover:bg-gray-100 md:hidden"
          aria-label="Abrir menú"
          aria-expanded={mobileOpen}
          aria-controls="mobile-menu"
          onClick={() => setMobileOpen((o) => !o)}
        >
          <svg className="h-6 w-6" fill="none" viewBox="0 0 24 24" stroke="currentColor" strokeWidth={1.5} aria-hidden>
            {mobileOpen ? (
              <path strokeLinecap="round" strokeLinejoin="round" d="M6 18L18 6M6 6l12 12" />
            ) : (
              <path strokeLinecap="round" strokeLinejoin="round" d="M3.75 6.75h16.5M3.75 12h16.5m-16.5 5.25h16.5" />
            )}
          </svg>
        </button>
      </div>
    </NavFrame>
  );
}
