// What every part of the admin screen does around a call: check the session token is still
// there, word a refusal with the server's detail, show an instant on the reporting zone's clock.
import { ApiError, formatDateTimeDMY } from '@adops/core';
import { readToken } from '../../lib/session';
import { readableDetail } from '../../lib/errors';
import { reportingTimeZone } from '../../lib/timezone';

const NO_TOKEN = 'Token no encontrado. Por favor, iniciá sesión nuevamente.';

/** Says so (through `report`) and answers false when the session token is gone (e.g. signed out in another tab). */
export function haveToken(report: (problem: string) => void): boolean {
  if (readToken()) return true;
  report(NO_TOKEN);
  return false;
}

/** 'Error al crear token: IPs permitidas: …': the action, then the server's words without field keys. */
export const withDetail = (text: string, error: unknown) => {
  const detail = error instanceof ApiError && error.detail ? readableDetail(error.detail) : '';
  return detail && detail !== text ? `${text}: ${detail}` : text;
};

/** An instant as dd/MM/yyyy HH:mm on the reporting zone's clock (named by ZoneNote beside the table). */
export const dateTime = (iso: string) => formatDateTimeDMY(iso, reportingTimeZone());
