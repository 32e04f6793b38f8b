// The face's own words for situations every screen meets, one wording each. The reversed range
// is core's DATE_RANGE_REVERSED (core/src/voice.ts on the server side of issue 30), said the
// same here before anything is sent.

/** Desde after Hasta, on any screen. */
export const DATE_RANGE_REVERSED = 'La fecha de inicio debe ser anterior o igual a la de fin';
/** A range with a day missing or half typed. */
export const DATE_RANGE_INCOMPLETE = 'Elige las fechas Desde y Hasta';
