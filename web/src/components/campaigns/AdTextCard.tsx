// 'Anuncio': the keyword (its copy suggested as it is typed), the ad's headline and body, and its button.
import { CTA_LABELS, CTA_TYPES, type CallToAction } from '@adops/core';
import { Card } from '../Card';
import { inputClass } from '../styles';
import { errorText } from '../../lib/errors';
import type { FormSetter, FormState } from './campaignForm';
import { Field } from './Field';
import type { CopyStatus } from './useSuggestions';

export function AdTextCard({ form, set, copy }: { form: FormState; set: FormSetter; copy: CopyStatus }) {
  return (
    <Card title="Anuncio">
      <div className="space-y-4">
        <Field
          label="Keyword"
          required
          hint={copy.loading ? 'Generando copy…' : 'Más de 2 caracteres: copy e imágenes sugeridos al dejar de escribir.'}
        >
          {(id) => (
            <input
              id={id}
              required
              maxLength={100}
              value={form.keyword}
              onChange={(e) => set('keyword')(e.target.value)}
              className={inputClass}
              placeholder="p. ej. seguros coche"
              autoComplete="off"
            />
          )}
        </Field>
        {Boolean(copy.error) && (
          <p role="alert" className="text-sm text-red-600">
            No se pudo generar el copy: {errorText(copy.error, 'Error al generar el copy')}
          </p>
        )}
        <Field label="Título (headline)" required>
          {(id) => (
            <input id={id} required maxLength={255} value={form.headline} onChange={(e) => set('headline')(e.target.value)} className={inputClass} />
          )}
        </Field>
        <Field label="Texto principal (body)" required>
          {(id) => (
            <textarea
              id={id}
              required
              rows={4}
              maxLength={2000}
              value={form.body}
              onChange={(e) => set('body')(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Field label="Botón (CTA)">
          {(id) => (
            <select id={id} value={form.cta} onChange={(e) => set('cta')(e.target.value as CallToAction)} className={inputClass}>
              {CTA_TYPES.map((cta) => (
                <option key={cta} value={cta}>
                  {CTA_LABELS[cta]} ({cta})
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
    </Card>
  );
}
