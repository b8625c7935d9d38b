import {
  LAB_ALLOW_ORIGINS,
  LAB_COOKIES,
  LAB_DEFAULT_POLICY,
  LAB_DEFAULT_SCENARIO,
  LAB_PREFLIGHT_STATUSES,
  LAB_REVALIDATES,
  type LabAllowOrigin,
  type LabCookie,
  type LabCorsPolicy,
  type LabCorsScenario,
  type LabHeaderList,
  type LabPreflightStatus,
  type LabRevalidate,
} from '@origin-lab/contract';
import { h } from '../frame/dom.js';
import { canonicalCase, expandCase, PREFLIGHT_PREFIX, SPLIT_FIELD } from '@origin-lab/cors-rules/playground-address';

/**
 * The playground's form and what it describes: the lab's choices written into its selects (the
 * choices are the contract's, the words for them the page's), the case as the address's fragment,
 * and the scenario, headers and body the fields ask for.
 */

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** How the form names each Allow-Origin the lab offers. */
const ALLOW_ORIGIN_LABELS: Record<LabAllowOrigin, string> = {
  origin: "the request's origin",
  '*': '*',
  none: 'none',
  other: 'another origin',
  two: 'two origins',
  null: 'null (the word)',
};

/** How the form names each demo cookie the lab offers. */
const COOKIE_LABELS: Record<LabCookie, string> = {
  off: 'not set',
  none: 'SameSite=None',
  lax: 'SameSite=Lax',
  strict: 'SameSite=Strict',
};

/** How the form names each 304 the lab can answer a revalidation with. */
const REVALIDATE_LABELS: Record<LabRevalidate, string> = {
  off: 'none (no ETag)',
  cors: 'a 304 with the CORS headers',
  bare: 'a 304 without CORS headers',
  other: 'a 304 naming another origin',
};

/** A select's options: the lab's choices, its default first (so the form starts on it). */
function options<T extends string | number>(choices: readonly T[], fallback: T, label: (choice: T) => string) {
  return [fallback, ...choices.filter((choice) => choice !== fallback)].map((choice) =>
    h('option', { value: String(choice) }, label(choice)),
  );
}

/** A body as the form asks for it, with what the request carries for it. */
export interface CaseBody {
  value: BodyInit | null;
  /** The Content-Type the request carries for it, unless the page's headers set one. */
  contentType: string | null;
  /** Whether the page's code sets that Content-Type (a JSON string), rather than the browser. */
  setByPage?: boolean;
  forcedPreflight: string | null;
}

/** A header list as the form's text field writes it: empty for no header. */
const headerList = (raw: string): LabHeaderList =>
  raw.trim() === '' ? null : raw.trim() === '*' ? '*' : raw.split(',').map((item) => item.trim());

function bodyOf(kind: string): CaseBody {
  const text = '{"hello":"lab"}';
  switch (kind) {
    case 'string':
      return { value: 'hello lab', contentType: 'text/plain;charset=UTF-8', forcedPreflight: null };
    case 'urlencoded':
      return {
        value: new URLSearchParams({ hello: 'lab' }),
        contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
        forcedPreflight: null,
      };
    case 'formdata': {
      const data = new FormData();
      data.append('hello', 'lab');
      // The boundary is the browser's; any value of this type is safelisted.
      return { value: data, contentType: 'multipart/form-data; boundary=x', forcedPreflight: null };
    }
    case 'json':
      return { value: text, contentType: 'application/json', setByPage: true, forcedPreflight: null };
    case 'blob-json':
      return {
        value: new Blob([text], { type: 'application/json' }),
        contentType: 'application/json',
        forcedPreflight: null,
      };
    case 'blob':
      return { value: new Blob([text]), contentType: null, forcedPreflight: null };
    case 'stream':
      return {
        value: new Blob([text]).stream(),
        contentType: null,
        forcedPreflight: 'its body is a ReadableStream, which always preflights',
      };
    default:
      return { value: null, contentType: null, forcedPreflight: null };
  }
}

export class CaseForm {
  /** The form as the page loads it: what a fragment leaves out. */
  readonly defaults: URLSearchParams;

  constructor(readonly element: HTMLFormElement) {
    for (const prefix of ['', PREFLIGHT_PREFIX])
      (this.field(`${prefix}allow-origin`) as HTMLSelectElement).replaceChildren(
        ...options(LAB_ALLOW_ORIGINS, LAB_DEFAULT_POLICY.allowOrigin, (choice) => ALLOW_ORIGIN_LABELS[choice]),
      );
    (this.field('preflight-status') as HTMLSelectElement).replaceChildren(
      ...options(LAB_PREFLIGHT_STATUSES, LAB_DEFAULT_SCENARIO.preflightStatus, String),
    );
    (this.field('revalidate') as HTMLSelectElement).replaceChildren(
      ...options(LAB_REVALIDATES, LAB_DEFAULT_SCENARIO.revalidate, (choice) => REVALIDATE_LABELS[choice]),
    );
    (this.field('cookie') as HTMLSelectElement).replaceChildren(
      ...options(LAB_COOKIES, LAB_DEFAULT_SCENARIO.cookie, (choice) => COOKIE_LABELS[choice]),
    );
    this.defaults = this.values();
  }

  field(name: string): Field {
    return this.element.elements.namedItem(name) as Field;
  }

  checked(name: string): boolean {
    return (this.field(name) as HTMLInputElement).checked;
  }

  private elements(): HTMLInputElement[] {
    return Array.from(this.element.elements) as HTMLInputElement[];
  }

  /** Every field's value, checkboxes as on/off. */
  values(): URLSearchParams {
    const values = new URLSearchParams();
    for (const element of this.elements()) {
      if (!element.name) continue;
      values.set(element.name, element.type === 'checkbox' ? (element.checked ? 'on' : 'off') : element.value);
    }
    return values;
  }

  /** The case as the address's fragment: what differs from the defaults. */
  fragment(): string {
    return canonicalCase(this.values(), this.defaults);
  }

  /** The canonical fragment of the case a fragment names: how a ready case is recognised. */
  canonical(fragment: URLSearchParams): string {
    return canonicalCase(expandCase(fragment, this.defaults), this.defaults);
  }

  /** The preflight's own fields are live only while "the preflight answers differently" is on. */
  syncSplit(): void {
    const split = this.checked(SPLIT_FIELD);
    for (const element of this.elements()) if (element.name.startsWith(PREFLIGHT_PREFIX)) element.disabled = !split;
  }

  /** Sets every field to the case the fragment names. */
  fill(fragment: URLSearchParams): void {
    const values = expandCase(fragment, this.defaults);
    for (const element of this.elements()) {
      const value = values.get(element.name);
      if (!element.name || value === null) continue;
      if (element.type === 'checkbox') element.checked = value === 'on';
      else element.value = value;
    }
    this.syncSplit();
  }

  /** The split switch changed: starting from the answer's policy, the preflight's own fields change one thing at a time. */
  splitChanged(): void {
    if (this.checked(SPLIT_FIELD))
      for (const element of this.elements())
        if (element.name.startsWith(PREFLIGHT_PREFIX)) {
          const answer = this.field(element.name.slice(PREFLIGHT_PREFIX.length)) as HTMLInputElement;
          if (element.type === 'checkbox') element.checked = answer.checked;
          else element.value = answer.value;
        }
    this.syncSplit();
  }

  /** The policy the fields under prefix describe ('' for the answer's, 'preflight.' for the preflight's own). */
  private policy(prefix: string): LabCorsPolicy {
    const named = (name: string) => this.field(`${prefix}${name}`);
    return {
      allowOrigin: named('allow-origin').value as LabAllowOrigin,
      allowCredentials: (named('allow-credentials') as HTMLInputElement).checked,
      allowMethods: headerList(named('allow-methods').value),
      allowHeaders: headerList(named('allow-headers').value),
      // Only the answer's policy has these fields: script reads the answer, not the preflight.
      exposeHeaders: headerList(this.field('expose-headers').value),
      maxAge: named('max-age').value.trim() === '' ? null : Number(named('max-age').value),
      varyOrigin: this.checked('vary'),
    };
  }

  /** The server's side of the case: what the lab URL will ask for. */
  scenario(): LabCorsScenario {
    const actual = this.policy('');
    return {
      preflight: this.checked(SPLIT_FIELD) ? this.policy(PREFLIGHT_PREFIX) : actual,
      actual,
      preflightStatus: Number(this.field('preflight-status').value) as LabPreflightStatus,
      extraHeader: this.field('extra-header').value === '' ? null : this.field('extra-header').value,
      cookie: this.field('cookie').value as LabCookie,
      cookieSecure: this.checked('cookie-secure'),
      cookiePartitioned: this.checked('cookie-partitioned'),
      revalidate: this.field('revalidate').value as LabRevalidate,
      auth: this.checked('auth') ? 'bearer' : 'off',
      protect: this.checked('protect') ? 'fetch-metadata' : 'off',
      // Where a redirect goes is an origin only the plan knows (planCase): the form says which one.
      redirectTo: null,
      redirectCors: this.checked('redirect-cors'),
      redirectUserinfo: this.checked('redirect-userinfo'),
    };
  }

  /** The headers the page's code sets, one "Name: value" per line. */
  headers(): [string, string][] {
    return this.field('headers')
      .value.split('\n')
      .map((line) => line.trim())
      .filter((line) => line.includes(':'))
      .map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]);
  }

  body(): CaseBody {
    return bodyOf(this.field('body').value);
  }
}
