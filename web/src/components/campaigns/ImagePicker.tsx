// The creator's image: an uploaded file (JPEG, PNG or WebP up to 8 MB) or one of the Pixabay
// suggestions for the keyword, with a refresh button for another page of suggestions.
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { MAX_IMAGE_BYTES, type ImageSuggestion } from '@adops/core';
import { errorText } from '../../lib/errors';
import { Loading } from '../Loading';
import { secondaryButton } from '../styles';
import type { ImageSuggestions } from './useSuggestions';

export type ChosenImage =
  | { kind: 'upload'; file: File /** object URL of the file, for previews */; url: string }
  | { kind: 'suggestion'; suggestion: ImageSuggestion };

const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];

export const chosenImageUrl = (image: ChosenImage | null): string | null =>
  image ? (image.kind === 'upload' ? image.url : image.suggestion.largeImageURL) : null;

export interface ImagePickerProps {
  image: ChosenImage | null;
  onChange: (image: ChosenImage | null) => void;
  suggestions: ImageSuggestions;
  keywordReady: boolean;
  onRefresh: () => void;
  /** Changing it empties the file input (the form was reset). */
  resetKey: number;
}

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('es-ES')} KB`;
const chosenLabel = (image: ChosenImage) =>
  image.kind === 'upload' ? `${image.file.name} (${kb(image.file.size)})` : `Sugerencia de Pixabay #${image.suggestion.id}`;

export function ImagePicker({ image, onChange, suggestions, keywordReady, onRefresh, resetKey }: ImagePickerProps) {
  const inputId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  function pickFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    setFileError(null);
    if (!file) return;
    if (file.type && !ACCEPTED.includes(file.type)) {
      setFileError('La imagen debe ser JPEG, PNG o WebP');
      e.target.value = '';
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      setFileError('La imagen supera el máximo de 8 MB');
      e.target.value = '';
      return;
    }
    onChange({ kind: 'upload', file, url: URL.createObjectURL(file) });
  }

  function chooseSuggestion(suggestion: ImageSuggestion) {
    setFileError(null);
    if (fileInput.current) fileInput.current.value = '';
    onChange({ kind: 'suggestion', suggestion });
  }

  function remove() {
    if (fileInput.current) fileInput.current.value = '';
    onChange(null);
  }

  const selectedId = image?.kind === 'suggestion' ? String(image.suggestion.id) : null;

  return (
    <div className="space-y-4">
      <div>
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-gray-700">
          Subir imagen
        </label>
        <input
          key={resetKey}
          ref={fileInput}
          id={inputId}
          type="file"
          accept={ACCEPTED.join(',')}
          onChange={pickFile}
          className="block w-full text-sm text-gray-600 file:mr-3 file:rounded-md file:border-0 file:bg-blue-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-blue-700 hover:file:bg-blue-100"
        />
        <p className="mt-1 text-xs text-gray-500">JPEG, PNG o WebP, hasta 8 MB. Recomendado 1200×628.</p>
        {fileError && (
          <p role="alert" className="mt-1 text-sm text-red-600">
            {fileError}
          </p>
        )}
      </div>

      {image && (
        <div data-testid="chosen-image" className="flex items-center gap-3 rounded-md border border-blue-200 bg-blue-50 p-2">
          <img src={chosenImageUrl(image)!} alt="Imagen elegida" className="h-14 w-24 rounded object-cover" />
          <p className="min-w-0 flex-1 truncate text-sm text-blue-900" title={chosenLabel(image)}>
            {chosenLabel(image)}
          </p>
          <button type="button" onClick={remove} className={secondaryButton}>
            Quitar imagen
          </button>
        </div>
      )}

      <div>
        <div className="mb-2 flex items-center justify-between gap-2">
          <h3 className="text-sm font-medium text-gray-700">Sugerencias de Pixabay</h3>
          <button
            type="button"
            onClick={onRefresh}
            disabled={!keywordReady || suggestions.loading}
            className={secondaryButton}
            title="Buscar otra página de imágenes"
          >
            ↻ Otras imágenes
          </button>
        </div>
        {!keywordReady ? (
          <p className="rounded-md border border-dashed border-gray-300 px-3 py-6 text-center text-sm text-gray-500">
            Escribe una keyword de más de 2 caracteres para ver imágenes sugeridas.
          </p>
        ) : suggestions.loading ? (
          <Loading label="Buscando imágenes…" />
        ) : suggestions.error ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
            No se pudieron cargar las imágenes: {errorText(suggestions.error, 'Error al buscar imágenes')}
          </p>
        ) : suggestions.page === null ? (
          <p className="px-3 py-6 text-center text-sm text-gray-500">Buscando imágenes en cuanto termines de escribir…</p>
        ) : suggestions.items.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-gray-500">No hay imágenes para esta keyword.</p>
        ) : (
          <>
            <ul data-testid="image-suggestions" data-page={suggestions.page} className="grid max-h-80 grid-cols-3 gap-2 overflow-y-auto">
              {suggestions.items.map((s) => {
                const selected = selectedId === String(s.id);
                return (
                  <li key={s.id}>
                    <button
                      type="button"
                      aria-pressed={selected}
                      aria-label={`Usar imagen ${s.id}`}
                      onClick={() => chooseSuggestion(s)}
                      className={`block w-full overflow-hidden rounded-md border-2 focus:outline-none focus:ring-2 focus:ring-blue-500 ${selected ? 'border-blue-600 ring-2 ring-blue-200' : 'border-transparent hover:border-gray-300'}`}
                    >
                      <img src={s.previewURL} alt="" loading="lazy" className="aspect-[1.91/1] w-full object-cover" />
                    </button>
                  </li>
                );
              })}
            </ul>
            <p className="mt-1 text-xs text-gray-500">Página {suggestions.page} de Pixabay</p>
          </>
        )}
      </div>
    </div>
  );
}
