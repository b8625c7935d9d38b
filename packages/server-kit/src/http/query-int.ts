import type { Context } from 'koa';
import { HttpError } from './http-error.js';

/** An inclusive integer range with the value used when the query leaves it out. */
export interface IntBounds {
  min: number;
  max: number;
  default: number;
}

/** Reads an integer query parameter within bounds; anything else is a 400 naming the parameter. */
export function queryInt(ctx: Context, name: string, bounds: IntBounds): number {
  const raw = ctx.query[name];
  if (raw === undefined) return bounds.default;
  const rule = `${name} must be a whole number from ${bounds.min} to ${bounds.max}`;
  if (Array.isArray(raw))
    throw new HttpError(400, `${name} was given more than once`, { parameter: name, detail: rule });
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(400, rule, { parameter: name, detail: `got "${raw.slice(0, 40)}"` });
  const value = Number(raw);
  if (value < bounds.min || value > bounds.max)
    throw new HttpError(400, rule, { parameter: name, detail: `got ${value}` });
  return value;
}
