// A box that scrolls what it holds (a wide table, a long log): keyboard users reach it with Tab
// and scroll it with the arrow keys (WCAG 2.1.1; axe's scrollable-region-focusable), and a screen
// reader names it when it has a label.
import { forwardRef, type HTMLAttributes } from 'react';

export interface ScrollRegionProps extends HTMLAttributes<HTMLDivElement> {
  /** What the box holds ('Tabla de publishers'): it becomes a named region. */
  label?: string;
}

export const ScrollRegion = forwardRef<HTMLDivElement, ScrollRegionProps>(function ScrollRegion({ label, className = '', children, ...rest }, ref) {
  return (
    <div
      ref={ref}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus to be scrolled from the keyboard
      tabIndex={0}
      {...(label ? { role: 'region', 'aria-label': label } : {})}
      className={`${className} focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500`}
      {...rest}
    >
      {children}
    </div>
  );
});
