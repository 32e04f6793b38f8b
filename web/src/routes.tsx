// The route table of SPEC §2 and its guards: /login public (signed-in users go on to
// /dashboard), every other screen needs a valid session, /admin-users needs an admin,
// and any other path goes to /login. Screens load lazily, one chunk each.
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { useSession } from './hooks/useSession';
import { storedSession } from './lib/session';
import { NavFrame, SignedOutNav } from './components/NavFrame';
import { Loading } from './components/Loading';
import { afterSignIn, loginPath } from './lib/returnTo';
import { reportingZoneAsked, reportingZoneSettled } from './lib/timezone';

const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

/** The signed-in nav (menus, bell, user menu) loads once someone is signed in: the login page downloads none of it. */
const NavBar = lazy(() => import('./components/NavBar').then((m) => ({ default: m.NavBar })));

const Login = page(() => import('./pages/Login'));
const Dashboard = page(() => import('./pages/Dashboard'));
const ApiExplorer = page(() => import('./pages/ApiExplorer'));
const CreateCampaign = page(() => import('./pages/CreateCampaign'));
const FbCampaigns = page(() => import('./pages/FbCampaigns'));
const Profit = page(() => import('./pages/Profit'));
const AdReport = page(() => import('./pages/AdReport'));
const Demand = page(() => import('./pages/Demand'));
const Finance = page(() => import('./pages/Finance'));
const AdminUsers = page(() => import('./pages/AdminUsers'));
const Audit = page(() => import('./pages/Audit'));
const ChangePassword = page(() => import('./pages/ChangePassword'));
const Referrers = page(() => import('./pages/Referrers'));
const Logs = page(() => import('./pages/Logs'));
const Alerts = page(() => import('./pages/Alerts'));

/** Each screen's name in the browser's tab, history and bookmarks ('Rentabilidad · AdOps Console'). */
export const SCREEN_TITLES: Readonly<Record<string, string>> = {
  '/login': 'Iniciar sesión',
  '/dashboard': 'Dashboard',
  '/apis': 'Api Explorer',
  '/create-campaigns': 'Fb Creator',
  '/fb-campaigns': 'Fb Campaigns',
  '/profit': 'Rentabilidad',
  '/ad-report': 'Ad Report',
  '/demand': 'Demand',
  '/finance': 'Finance',
  '/change-password': 'Cambiar contraseña',
  '/referrers': 'Referrers',
  '/logs': 'Logs',
  '/alerts': 'Alertas',
  '/admin-users': 'Usuarios',
  '/admin/audit': 'Auditoría',
};

export const APP_NAME = 'AdOps Console';

function useScreenTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    const screen = SCREEN_TITLES[pathname];
    document.title = screen ? `${screen} · ${APP_NAME}` : APP_NAME;
  }, [pathname]);
}

function Shell() {
  const { user } = useSession();
  useScreenTitle();
  return (
    <div className="min-h-screen bg-gray-50">
      {user ? (
        <Suspense fallback={<NavFrame home="/dashboard" />}>
          <NavBar />
        </Suspense>
      ) : (
        <SignedOutNav />
      )}
      <main className="mx-auto max-w-screen-2xl px-4 py-6 sm:px-6">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

/** A screen's dates are in the reporting time zone: it waits (under the painted frame) until that is known. */
function ZoneKnown() {
  const [settled, setSettled] = useState(reportingZoneSettled);
  useEffect(() => {
    if (!settled) void reportingZoneAsked().then(() => setSettled(true));
  }, [settled]);
  return settled ? <Outlet /> : <Loading />;
}

/**
 * Reads storage on every render, so a token that expired since the last check is caught. A
 * screen opened signed out goes to the login page, which returns to it (query string too).
 */
function RequireAuth() {
  useSession();
  const location = useLocation();
  return storedSession() ? <ZoneKnown /> : <Navigate to={loginPath(location)} replace />;
}

/** Signed out: to the login page, back here after; signed in but no admin: /login, which sends them on to the Dashboard. */
function RequireAdmin() {
  useSession();
  const location = useLocation();
  const session = storedSession();
  if (!session) return <Navigate to={loginPath(location)} replace />;
  return session.user.is_admin ? <ZoneKnown /> : <Navigate to="/login" replace />;
}

/** Signed in: on to the screen the login page was asked to return to, else the Dashboard. */
function PublicOnly() {
  useSession();
  const { search } = useLocation();
  return storedSession() ? <Navigate to={afterSignIn(search)} replace /> : <Outlet />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Shell />}>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<Login />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route path="/dashboard" element={<Dashboard />} />
          <Route path="/apis" element={<ApiExplorer />} />
          <Route path="/create-campaigns" element={<CreateCampaign />} />
          <Route path="/fb-campaigns" element={<FbCampaigns />} />
          <Route path="/profit" element={<Profit />} />
          <Route path="/ad-report" element={<AdReport />} />
          <Route path="/demand" element={<Demand />} />
          <Route path="/finance" element={<Finance />} />
          <Route path="/change-password" element={<ChangePassword />} />
          <Route path="/referrers" element={<Referrers />} />
          <Route path="/logs" element={<Logs />} />
          <Route path="/alerts" element={<Alerts />} />
        </Route>
        <Route element={<RequireAdmin />}>
          <Route path="/admin-users" element={<AdminUsers />} />
          <Route path="/admin/audit" element={<Audit />} />
        </Route>
        <Route path="*" element={<Navigate to="/login" replace />} />
      </Route>
    </Routes>
  );
}
