// What every modal dialog does with the keyboard (WAI-ARIA dialog pattern): focus moves into it,
// Tab and Shift+Tab go round its controls and never behind it, Escape closes it, the page
// behind does not scroll, and focus goes back where it was when it closes.
import { type RefObject, useEffect, useRef } from 'react';

const FOCUSABLE =
  'button:not([disabled]):not([tabindex="-1"]), a[href]:not([tabindex="-1"]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

export interface ModalOptions {
  /** The dialog's box: Tab stays inside it. */
  box: RefObject<HTMLElement | null>;
  /** The control focused on opening (else the first one). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Escape (and whatever else the dialog wires to it). */
  onClose: () => void;
  /** Where focus goes on closing (else where it was before opening). */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

export function useModal({ box, initialFocus, onClose, returnFocusTo }: ModalOptions): void {
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const returnTo = useRef(returnFocusTo);
  returnTo.current = returnFocusTo;

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusable = () => [...(box.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    (initialFocus?.current ?? focusable()[0])?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onCloseRef.current();
      } else if (e.key === 'Tab' && box.current) {
        const all = focusable();
        const first = all[0];
        const last = all[all.length - 1];
        if (!box.current.contains(document.activeElement) || (e.shiftKey && document.activeElement === first)) {
          e.preventDefault();
          (e.shiftKey ? last : first)?.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first?.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      (returnTo.current?.current ?? before)?.focus();
    };
  }, [box, initialFocus]);
}
