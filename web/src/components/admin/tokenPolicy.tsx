// A publisher token's policy as an admin types it (expiry day, allowed addresses, hourly
// limit), the fields that edit it, and how a draft becomes the API's body.
import type { PublisherToken, TokenPolicy } from '@adops/core';
import { todayIn } from '@adops/core';
import { FormField } from '../FormField';
import { inputClass } from '../styles';
import { reportingTimeZone } from '../../lib/timezone';

/** 'a, b c' → ['a', 'b', 'c']: addresses and ranges as an admin types them. */
const ipList = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** The policy fields of the create form and the row editor, as typed. */
export interface PolicyDraft {
  expires: string;
  ips: string;
  limit: string;
}
export const EMPTY_POLICY: PolicyDraft = { expires: '', ips: '', limit: '' };

/** A draft's fields for the API; `clear` says empty means "none/default" (editing) rather than "not given" (creating). */
export function policyBody(d: PolicyDraft, clear: boolean): TokenPolicy {
  const body: TokenPolicy = {};
  if (d.expires) body.expires_at = d.expires;
  else if (clear) body.expires_at = null;
  const ips = ipList(d.ips);
  if (ips.length || clear) body.allowed_ips = ips;
  if (d.limit.trim()) body.rate_limit = Number(d.limit);
  else if (clear) body.rate_limit = null;
  return body;
}

export const draftOf = (t: PublisherToken): PolicyDraft => ({
  expires: t.expires_at ? todayIn(reportingTimeZone(), new Date(t.expires_at)) : '',
  ips: t.allowed_ips.join(', '),
  limit: t.rate_limit === null ? '' : String(t.rate_limit),
});

export function PolicyFields({ idPrefix, draft, onChange }: { idPrefix: string; draft: PolicyDraft; onChange: (d: PolicyDraft) => void }) {
  return (
    <>
      <FormField id={`${idPrefix}-expires`} label="Caduca el" className="w-40">
        <input
          id={`${idPrefix}-expires`}
          type="date"
          className={inputClass}
          value={draft.expires}
          onChange={(e) => onChange({ ...draft, expires: e.target.value })}
        />
      </FormField>
      <FormField id={`${idPrefix}-ips`} label="IPs permitidas" className="min-w-[12rem] flex-1">
        <input
          id={`${idPrefix}-ips`}
          className={inputClass}
          value={draft.ips}
          onChange={(e) => onChange({ ...draft, ips: e.target.value })}
          placeholder="todas; p. ej. 203.0.113.0/24, 2001:db8::/32"
        />
      </FormField>
      <FormField id={`${idPrefix}-limit`} label="Límite por hora" className="w-32">
        <input
          id={`${idPrefix}-limit`}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          className={inputClass}
          value={draft.limit}
          onChange={(e) => onChange({ ...draft, limit: e.target.value })}
          placeholder="por defecto"
        />
      </FormField>
    </>
  );
}
