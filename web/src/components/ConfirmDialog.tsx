// A question before an action that is hard to undo, in the app's dialog style: an alertdialog
// that takes the focus (on the safe answer), keeps Tab inside, and answers no on Escape, on the
// backdrop or on ×; the focus goes back where it was.
import { useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { primaryButton, secondaryButton } from './styles';
import { useModal } from './useModal';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Where the focus goes when the dialog closes (default: where it was before it opened). */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

export function ConfirmDialog({ title, children, confirmLabel, cancelLabel = 'Cancelar', onConfirm, onCancel, returnFocusTo }: ConfirmDialogProps) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useModal({ box, initialFocus: cancel, onClose: onCancel, returnFocusTo });

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a mouse shortcut for the cancel button; Escape does it from the keyboard
    <div
      className="fixed inset-0 z-50 flex items-end justify-center overflow-y-auto bg-gray-900/60 p-4 sm:items-center"
      onMouseDown={(e) => e.target === e.currentTarget && onCancel()}
    >
      <div
        ref={box}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="w-full max-w-lg rounded-lg bg-white shadow-xl"
      >
        <header className="flex items-start justify-between gap-3 border-b border-gray-200 px-5 py-4">
          <h2 id={`${id}-title`} className="text-lg font-semibold text-gray-900">
            {title}
          </h2>
          <button
            type="button"
            aria-label="Cerrar"
            tabIndex={-1}
            onClick={onCancel}
            className="rounded-md p-1 text-2xl leading-none text-gray-500 hover:bg-gray-100 hover:text-gray-700"
          >
            ×
          </button>
        </header>
        <div id={`${id}-text`} className="space-y-2 px-5 py-4 text-sm text-gray-700">
          {children}
        </div>
        <footer className="flex flex-col-reverse gap-3 border-t border-gray-200 px-5 py-4 sm:flex-row sm:justify-end">
          <button ref={cancel} type="button" onClick={onCancel} className={secondaryButton}>
            {cancelLabel}
          </button>
          <button type="button" onClick={onConfirm} className={primaryButton}>
            {confirmLabel}
          </button>
        </footer>
      </div>
    </div>,
    document.body,
  );
}
