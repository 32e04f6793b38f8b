// Entry point of the staff SPA: router, session and the route table.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SessionProvider } from './hooks/useSession';
import { AppRoutes } from './routes';
import { loadReportingTimeZone } from './lib/timezone';
import './index.css';

// Dates and presets are calendar days in the server's reporting time zone: learn it first.
void loadReportingTimeZone().finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <SessionProvider>
          <AppRoutes />
        </SessionProvider>
      </BrowserRouter>
    </StrictMode>,
  ),
);
