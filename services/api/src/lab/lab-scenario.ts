import type { LabCorsScenario } from '@origin-lab/contract';
import { readLabCorsQuery, type LabLimits } from '@origin-lab/contract/lab-cors-read';
import { originOnHost } from '@origin-lab/contract';
import { HttpError } from '@origin-lab/server-kit';

/** The api's limits on a lab URL: its settings LAB_LIST_ITEMS and LAB_VALUE_CHARS. */
export type { LabLimits };

/**
 * The scenario a lab URL asks for, read and checked by the contract's codec (one set of names,
 * choices and defaults with the page that writes the URL); a URL it refuses is the api's 400
 * naming the parameter.
 */
export function labScenario(query: string, limits: LabLimits): LabCorsScenario {
  const read = readLabCorsQuery(query, limits);
  if (read.ok) return read.scenario;
  const { parameter, error, detail } = read.failure;
  throw new HttpError(400, error, { parameter, ...(detail !== undefined ? { detail } : {}) });
}

/**
 * The lab's own names: the api's allowed origins, and each of them under the third name (SITE_C)
 * when there is one. Where the CORS lab may redirect (nothing a URL names freely), and the origins
 * the MCP lab trusts.
 */
export function labRedirectOrigins(allowedOrigins: readonly string[], thirdSite: string | null): string[] {
  const third = thirdSite === null ? [] : allowedOrigins.map((origin) => originOnHost(origin, thirdSite));
  return [...new Set([...allowedOrigins, ...third])];
}
