// Entry point of the staff SPA: router, session and the route table.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { SessionProvider } from './hooks/useSession';
import { AppRoutes } from './routes';
import { reportingZoneAsked } from './lib/timezone';
import './index.css';

// Dates and presets are calendar days in the server's reporting time zone: ask for it now;
// the frame paints at once and only the signed-in screens wait for the answer (routes.tsx).
void reportingZoneAsked();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <SessionProvider>
        <AppRoutes />
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
