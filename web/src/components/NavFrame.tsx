// The nav's frame: the sticky header with the brand, and what a signed-out visitor sees in it
// (the login link). Kept apart from the signed-in NavBar (menus, bell, user menu), which loads
// only once someone is signed in, so the login page downloads none of it.
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';

export const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-blue-50 text-blue-700' : 'text-gray-600 hover:bg-gray-100 hover:text-gray-900'}`;

/** The header: the brand linking `home`, then `children` in the bar and `below` under it (the mobile menu). */
export function NavFrame({ home, children, below }: { home: string; children?: ReactNode; below?: ReactNode }) {
  return (
    <header className="sticky top-0 z-20 border-b border-gray-200 bg-white/95 backdrop-blur">
      <nav aria-label="Principal" className="mx-auto flex h-14 max-w-screen-2xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to={home} className="flex items-center gap-2 font-semibold text-gray-900">
          <span className="inline-flex h-7 w-7 items-center justify-center rounded-md bg-blue-600 text-sm font-bold text-white">A</span>
          <span>AdOps Console</span>
        </Link>
        {children}
      </nav>
      {below}
    </header>
  );
}

export function SignedOutNav() {
  return (
    <NavFrame home="/login">
      <NavLink to="/login" className={linkClass}>
        Login
      </NavLink>
    </NavFrame>
  );
}
