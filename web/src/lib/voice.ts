// The face's words for situations every screen meets, one wording each. What the server also
// says (a reversed range, a range too long) is core's voice (core/src/voice.ts), re-exported so a
// screen refuses before sending in the very words the server would answer with.
export { DATE_RANGE_REVERSED, rangeTooLong } from '@adops/core';

/** A range with a day missing or half typed (only a screen can meet it: the API needs both days). */
export const DATE_RANGE_INCOMPLETE = 'Elige las fechas Desde y Hasta';
