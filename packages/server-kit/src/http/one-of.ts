import { HttpError } from './http-error.js';

/** Longest part of a wrong value repeated in the error. */
const SHOWN_CHARS = 64;

/** One of the listed words, or a 400 naming the parameter, the choices and what came instead. */
export function oneOf<T extends string | number>(name: string, raw: string, choices: readonly T[]): T {
  const found = choices.find((choice) => String(choice) === raw);
  if (found === undefined)
    throw new HttpError(400, `${name} must be one of ${choices.join(', ')}`, {
      parameter: name,
      detail: `got "${raw.slice(0, SHOWN_CHARS)}"`,
    });
  return found;
}
