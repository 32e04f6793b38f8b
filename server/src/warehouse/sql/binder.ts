// One binder of named parameters for both engines: a query binds each value once under a fresh
// name (p0, p1, …) and writes the placeholder the dialect answers — DuckDB `$p0` (the statement
// is prepared and bound by name), ClickHouse `{p0:Type}` (sent as query_params). No position is
// counted: fragments bind their own values in any order and compose freely.
import type { Dialect, ParamType } from './dialect.js';

/** A value bound to a statement (a list: ClickHouse's Array(String); DuckDB's own lists are bound by its Db). */
export type Param = string | number | boolean | null | bigint | readonly string[] | readonly number[];
/** Bound values by name. */
export type Params = Record<string, Param>;

export class Binder {
  readonly params: Params = {};
  private n = 0;

  constructor(readonly dialect: Dialect) {}

  /** Binds `value` under a new name and answers its placeholder; `type` is ClickHouse's spelling (see ParamType). */
  bind(value: Param, type: ParamType): string {
    const name = `p${this.n++}`;
    this.params[name] = value;
    return this.dialect.param(name, type);
  }

  /** An epoch-ms instant, bound (a DuckDB TIMESTAMP, a ClickHouse DateTime64(3, 'UTC')). */
  instant(ms: number): string {
    return this.dialect.instant((value, type) => this.bind(value, type), ms);
  }
}
