// The referrer-spam list on the Referrers screen (admins only, beside the IVT table whose 'Bots y
// spam' it decides): how many domains the maintained list ships and how many are flagged now,
// the domains the network added or took out (searchable, 20 a page), a form to flag a domain or
// stop flagging one (the server validates it; its Spanish detail is shown), and each change
// undone from its row. Every change shows at once: the server answers the new list.
import { CheckedForm } from '../CheckedForm';
import { Fragment, useId, useMemo, useState, type FormEvent } from 'react';
import { formatInt, type SpamList, type SpamListChange } from '@adops/core';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { useFlash } from '../../hooks/useFlash';
import { errorText } from '../../lib/errors';
import { Card } from '../Card';
import { DataTable, type Column } from '../DataTable';
import { ErrorBanner } from '../ErrorBanner';
import { FormField } from '../FormField';
import { Loading } from '../Loading';
import { Pagination } from '../Pagination';
import { MarkedText } from '../icons';
import { dangerButton, inputClass, primaryButton, secondaryButton } from '../styles';

/** Changes shown per page. */
export const SPAM_PAGE_SIZE = 20;

/** A change the network made to the maintained list. */
export interface SpamChangeRow {
  domain: string;
  /** added: flagged although the maintained list lacks it; removed: a maintained domain no longer flagged. */
  kind: 'added' | 'removed';
}

/** The network's changes whose domain contains the search (case-insensitive), by domain. */
export function spamChangeRows(list: SpamList, search: string): SpamChangeRow[] {
  const needle = search.trim().toLowerCase();
  const rows: SpamChangeRow[] = [
    ...list.added.map((domain) => ({ domain, kind: 'added' as const })),
    ...list.removed.map((domain) => ({ domain, kind: 'removed' as const })),
  ];
  return rows.filter((r) => r.domain.includes(needle)).sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
}

/** What a change did, in the admin's words, from the list before and the server's answer. */
export function changeMessage(domain: string, verb: 'add' | 'remove', before: SpamList, after: SpamList): string {
  const d = domain.trim().toLowerCase();
  if (verb === 'add') {
    if (after.added.includes(d) && !before.added.includes(d)) return `✅ ${d} se marca como spam desde ahora`;
    if (before.removed.includes(d)) return `✅ ${d} vuelve a marcarse como spam (lista mantenida)`;
    return `✅ ${d} ya se marcaba como spam`;
  }
  if (before.added.includes(d)) return `✅ ${d} ya no se marca como spam`;
  if (after.removed.includes(d) && !before.removed.includes(d)) return `✅ ${d} ya no se marca como spam (queda fuera de la lista mantenida)`;
  if (before.removed.includes(d)) return `✅ ${d} ya no se marcaba como spam`;
  return `✅ ${d} no estaba en la lista`;
}

/** A domain that wraps only after its dots on a narrow screen ('lote19.spam.example.' / 'net'). */
function DomainText({ domain }: { domain: string }) {
  const labels = domain.split('.');
  return (
    <>
      {labels.map((label, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a domain's labels repeat and keep their order
        <Fragment key={i}>
          {label}
          {i < labels.length - 1 && (
            <>
              .<wbr />
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}

const plural = (n: number, one: string, many: string) => `${formatInt(n)} ${n === 1 ? one : many}`;

/** The changes' table: search results one page at a time, each with the button that undoes it. */
export function SpamChangesTable({
  list,
  search,
  page,
  onPage,
  onUndo,
  busy = false,
}: {
  list: SpamList;
  search: string;
  page: number;
  onPage: (page: number) => void;
  onUndo: (row: SpamChangeRow) => void;
  busy?: boolean;
}) {
  const rows = useMemo(() => spamChangeRows(list, search), [list, search]);
  const pageCount = Math.max(1, Math.ceil(rows.length / SPAM_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pageCount);
  const shown = rows.slice((current - 1) * SPAM_PAGE_SIZE, current * SPAM_PAGE_SIZE);
  const none = list.added.length + list.removed.length === 0;

  const columns: Column<SpamChangeRow>[] = [
    {
      key: 'domain',
      header: 'Dominio',
      // The change under its domain, and long domains wrapped: the button stays in view on a phone.
      cell: (r) => (
        <div className="whitespace-normal">
          <span className="block break-words text-gray-900">
            <DomainText domain={r.domain} />
          </span>
          {r.kind === 'added' ? (
            <span className="mt-1 inline-flex rounded-md bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-200">
              Añadido por la red
            </span>
          ) : (
            <span className="mt-1 inline-flex rounded-md bg-gray-50 px-2 py-0.5 text-xs font-medium text-gray-600 ring-1 ring-inset ring-gray-200">
              Quitado de la lista mantenida
            </span>
          )}
        </div>
      ),
    },
    {
      key: 'action',
      header: 'Acciones',
      align: 'right',
      cell: (r) =>
        r.kind === 'added' ? (
          <button type="button" className={dangerButton} disabled={busy} onClick={() => onUndo(r)} aria-label={`Quitar ${r.domain}`}>
            Quitar
          </button>
        ) : (
          <button type="button" className={secondaryButton} disabled={busy} onClick={() => onUndo(r)} aria-label={`Volver a marcar ${r.domain}`}>
            Volver a marcar
          </button>
        ),
    },
  ];

  return (
    <div>
      <p className="mb-2 text-sm text-gray-600" data-testid="spam-changes-count">
        {none
          ? 'La red no ha añadido ni quitado dominios: se usa la lista mantenida tal cual.'
          : `${plural(list.added.length, 'añadido', 'añadidos')} · ${plural(list.removed.length, 'quitado', 'quitados')}${
              search.trim() ? ` · ${plural(rows.length, 'coincide', 'coinciden')} con «${search.trim()}»` : ''
            }`}
      </p>
      {!none && (
        <>
          <div data-testid="spam-table">
            <DataTable
              columns={columns}
              rows={shown}
              rowKey={(r) => `${r.kind}:${r.domain}`}
              rowProps={(r) => ({ 'data-domain': r.domain, 'data-kind': r.kind })}
              emptyText={`Ningún dominio añadido o quitado contiene «${search.trim()}»`}
              caption="Dominios añadidos o quitados por la red"
            />
          </div>
          {pageCount > 1 && (
            <div className="mt-3 flex justify-end">
              <Pagination page={current} pageCount={pageCount} onPage={onPage} />
            </div>
          )}
        </>
      )}
    </div>
  );
}

export function SpamListCard() {
  const api = useApi();
  const ids = useId();
  const [list, setList] = useState<SpamList | null>(null);
  const load = useAsync(
    async (signal) => {
      const answer = await api.referrers.spamList(undefined, { signal });
      setList(answer);
      return answer;
    },
    [api],
  );
  const [domain, setDomain] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [message, flash] = useFlash<string>(4000);

  async function change(verb: 'add' | 'remove', target: string): Promise<boolean> {
    if (!list) return false;
    setBusy(true);
    setError(null);
    flash(null);
    try {
      const body: SpamListChange = verb === 'add' ? { add: [target] } : { remove: [target] };
      const after = await api.referrers.updateSpamList(body);
      flash(changeMessage(target, verb, list, after));
      setList(after);
      return true;
    } catch (err) {
      setError(`Error al cambiar la lista de spam: ${errorText(err, 'error desconocido')}`);
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // The button pressed says which change: 'Marcar como spam' (Enter too) or 'Dejar de marcar'.
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const verb = submitter?.value === 'remove' ? 'remove' : 'add';
    if (await change(verb, domain)) setDomain('');
  }

  const domainId = `${ids}-domain`;
  const searchId = `${ids}-search`;
  return (
    <Card
      title="Lista de spam de referrers"
      actions={
        list ? (
          <span className="text-sm text-gray-500" data-testid="spam-total">
            {plural(list.total, 'dominio marcado', 'dominios marcados')}
          </span>
        ) : null
      }
    >
      {load.loading && !list ? (
        <Loading label="Cargando la lista de spam…" />
      ) : !list ? (
        <ErrorBanner error={`Error al cargar la lista de spam: ${errorText(load.error, 'error desconocido')}`} />
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-gray-600" data-testid="spam-summary">
            Las visitas cuyo referrer o source es uno de estos dominios (o un subdominio suyo) se guardan como spam y no cuentan en los informes. La
            lista mantenida ({list.source}) trae {plural(list.shipped, 'dominio', 'dominios')}; abajo, los que la red añadió o quitó.
          </p>
          <CheckedForm onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Cambiar la lista de spam">
            <FormField
              id={domainId}
              label="Dominio"
              className="min-w-[14rem] flex-1"
              hint="Un nombre de host como spam.example.com; se marcan también sus subdominios."
            >
              <input
                id={domainId}
                className={inputClass}
                value={domain}
                required
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setDomain(e.target.value)}
                placeholder="spam.example.com"
              />
            </FormField>
            {/* Aligned with the input, above the hint. */}
            <div className="mb-5 flex flex-wrap gap-2">
              <button type="submit" value="add" disabled={busy} className={primaryButton}>
                Marcar como spam
              </button>
              <button type="submit" value="remove" disabled={busy} className={secondaryButton.replace('py-1.5', 'py-2')}>
                Dejar de marcar
              </button>
            </div>
          </CheckedForm>
          {error && <ErrorBanner error={error} />}
          {message && (
            <p role="status" className="text-sm text-green-700">
              <MarkedText text={message} />
            </p>
          )}
          {list.added.length + list.removed.length > 0 && (
            <FormField id={searchId} label="Buscar dominio" className="max-w-sm">
              <input
                id={searchId}
                type="search"
                className={inputClass}
                value={search}
                placeholder="parte del dominio"
                onChange={(e) => {
                  setSearch(e.target.value);
                  setPage(1);
                }}
              />
            </FormField>
          )}
          <SpamChangesTable
            list={list}
            search={search}
            page={page}
            onPage={setPage}
            busy={busy}
            onUndo={(r) => void change(r.kind === 'added' ? 'remove' : 'add', r.domain)}
          />
        </div>
      )}
    </Card>
  );
}
