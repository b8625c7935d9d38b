/**
 * The probe page: the one document the check serves at each tried origin. Its script sends one
 * request as the page's own code would (fetch or XMLHttpRequest) and reports only what script can
 * see: whether the answer was readable, its status, the header names it could read, the error.
 * A request from an opaque origin runs in a sandboxed frame or a data: URL worker of the page.
 */
/** Where a page of the check runs: a page of an origin, a sandboxed frame in it, or a worker from a data: URL. */
export type Context = 'page' | 'sandboxed-frame' | 'data-worker';

/** What the page's script asks for: one request. */
export interface ProbeRequest {
  url: string;
  api: 'fetch' | 'xhr';
  method: string;
  headers: [string, string][];
  credentials: boolean;
  body: string | null;
  timeoutMs: number;
  /** Give back the answer's text when readable (--session: its hash tells a signed-in answer from another). */
  readBody: boolean;
}

/** What the page's script could see of it. */
export interface ProbeResult {
  /** The origin the script ran at, as it saw itself (self.origin): "null" in a frame or worker. */
  ranAt: string;
  readable: boolean;
  status: number | null;
  /** Header names script could read (lower case); null when nothing was readable. */
  headers: string[] | null;
  /**
   * The rejection or error, as script saw it (e.g. "TypeError: Failed to fetch"). Not called
   * "error": webdriverio takes any script result with an error field for a WebDriver error.
   */
  rejection: string | null;
  timedOut: boolean;
  redirected: boolean;
  /** The answer's URL (after redirects), when readable. */
  finalUrl: string | null;
  /** The context could not be made in this engine (e.g. a data: worker refused): why. */
  unsupported: string | null;
  /**
   * The answer's text, when readable and asked for (readBody), at most BODY_TEXT_MAX characters:
   * only ever hashed by the check, never written anywhere.
   */
  text: string | null;
}

/** The most of an answer's text a page gives back (and the check hashes). */
export const BODY_TEXT_MAX = 1_048_576;

/**
 * A header value the page fills in with the MCP session id an earlier answer of this page gave
 * it (Mcp-Session-Id, where script could read it); the header is left out while it has none.
 */
export const MCP_SESSION = '{mcp-session-id}';

/** The path of the probe document on every tried origin. */
export const PROBE_PATH = '/__origin-lab-check__/probe';

/**
 * Runs in the browser, in a page, a frame or a worker: defines self.__originLabProbe. Written as
 * a function so that the compiler checks it; its source text is what the page carries, so it may
 * use nothing from outside.
 */
function probeMain(): void {
  type Request = ProbeRequest;
  const scope = self as unknown as { __originLabProbe: unknown; __originLabMcpSession?: string };
  // MCP_SESSION (this function may use nothing from outside): filled from an earlier answer.
  const withSession = (headers: [string, string][]) =>
    headers.flatMap(([name, value]): [string, string][] =>
      value !== '{mcp-session-id}'
        ? [[name, value]]
        : scope.__originLabMcpSession
          ? [[name, scope.__originLabMcpSession]]
          : [],
    );
  const send = async (given: Request) => {
    const request = { ...given, headers: withSession(given.headers) };
    const base = {
      ranAt: self.origin,
      readable: false,
      status: null as number | null,
      headers: null as string[] | null,
      rejection: null as string | null,
      timedOut: false,
      redirected: false,
      finalUrl: null as string | null,
      unsupported: null,
      text: null as string | null,
    };
    // BODY_TEXT_MAX (this function may use nothing from outside).
    const cap = (text: string) => text.slice(0, 1_048_576);
    if (request.api === 'xhr')
      return new Promise<typeof base>((resolve) => {
        const xhr = new XMLHttpRequest();
        xhr.open(request.method, request.url);
        xhr.withCredentials = request.credentials;
        xhr.timeout = request.timeoutMs;
        for (const [name, value] of request.headers) xhr.setRequestHeader(name, value);
        xhr.onload = () => {
          const names = xhr
            .getAllResponseHeaders()
            .trim()
            .split(/[\r\n]+/)
            .filter(Boolean)
            .map((line) => line.slice(0, line.indexOf(':')).trim().toLowerCase());
          const text = request.readBody ? cap(xhr.responseText) : null;
          resolve({ ...base, readable: true, status: xhr.status, headers: names, finalUrl: xhr.responseURL, text });
        };
        xhr.onerror = () => resolve({ ...base, rejection: `XMLHttpRequest error (status ${xhr.status})` });
        xhr.ontimeout = () => resolve({ ...base, rejection: 'XMLHttpRequest timeout', timedOut: true });
        xhr.send(request.body);
      });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), request.timeoutMs);
    try {
      const answer = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        credentials: request.credentials ? 'include' : 'same-origin',
        mode: 'cors',
        body: request.body,
        signal: controller.signal,
      });
      const headers: string[] = [];
      answer.headers.forEach((_value, name) => headers.push(name));
      const session = answer.headers.get('mcp-session-id');
      if (session) scope.__originLabMcpSession = session;
      const text = request.readBody
        ? await answer.text().then(cap, () => null)
        : await answer.arrayBuffer().then(
            () => null,
            () => null,
          );
      return {
        ...base,
        readable: true,
        status: answer.status,
        headers,
        redirected: answer.redirected,
        finalUrl: answer.url,
        text,
      };
    } catch (err) {
      const error = err as Error;
      return { ...base, rejection: `${error.name}: ${error.message}`, timedOut: controller.signal.aborted };
    } finally {
      clearTimeout(timer);
    }
  };
  scope.__originLabProbe = { send };
}

/** The probe's script, as the page (and its frame and worker) carry it. */
export const PROBE_SCRIPT = `(${probeMain.toString()})();`;

/**
 * Runs in the page (given to the engine's evaluate): sends the request from the page itself, from
 * a sandboxed frame made for it, or from a worker made from a data: URL, and returns what that
 * context saw. timeoutMs bounds the frame's or worker's start as well.
 */
export function runInPage(args: { context: Context; request: ProbeRequest; script: string }): Promise<ProbeResult> {
  const { context, request, script } = args;
  const probe = (self as unknown as { __originLabProbe: { send(r: ProbeRequest): Promise<ProbeResult> } })
    .__originLabProbe;
  if (context === 'page') return probe.send(request);
  const unsupported = (why: string): ProbeResult => ({
    ranAt: 'null',
    readable: false,
    status: null,
    headers: null,
    rejection: null,
    timedOut: false,
    redirected: false,
    finalUrl: null,
    unsupported: why,
    text: null,
  });
  return new Promise<ProbeResult>((resolve) => {
    const timer = setTimeout(() => finish(unsupported('no answer from it in time')), request.timeoutMs + 5_000);
    let cleanup = () => {};
    const finish = (result: ProbeResult) => {
      clearTimeout(timer);
      cleanup();
      resolve(result);
    };
    const glue = `${script}
const post = (message) => (typeof window === 'undefined' ? self.postMessage(message) : parent.postMessage(message, '*'));
self.addEventListener('message', async (event) => post(await self.__originLabProbe.send(event.data)));
post('ready');`;
    try {
      if (context === 'data-worker') {
        const worker = new Worker(`data:text/javascript,${encodeURIComponent(glue)}`);
        cleanup = () => worker.terminate();
        worker.onerror = (event) => finish(unsupported(`the worker failed: ${event.message || 'an error event'}`));
        worker.onmessage = (event) => {
          if (event.data === 'ready') worker.postMessage(request);
          else finish(event.data as ProbeResult);
        };
      } else {
        const frame = document.createElement('iframe');
        frame.sandbox.add('allow-scripts');
        frame.srcdoc = `<!doctype html><script>${glue.replace(/<\//g, '<\\/')}</script>`;
        const onMessage = (event: MessageEvent) => {
          if (event.source !== frame.contentWindow) return;
          if (event.data === 'ready') frame.contentWindow?.postMessage(request, '*');
          else finish(event.data as ProbeResult);
        };
        window.addEventListener('message', onMessage);
        cleanup = () => {
          window.removeEventListener('message', onMessage);
          frame.remove();
        };
        document.body.append(frame);
      }
    } catch (err) {
      finish(unsupported(`${(err as Error).name}: ${(err as Error).message}`));
    }
  });
}

/** The probe document: the script, nothing to fetch (no favicon request either). */
export function probeDocument(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>origin-lab check</title><link rel="icon" href="data:,"><script>${PROBE_SCRIPT}</script></head><body></body></html>`;
}
