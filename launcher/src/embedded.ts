import { serve, type Handler, type LogSink } from '@origin-lab/server-kit';
import { apiConfigFromEnv, createApp as createApi, HTTP_VERSION_HEADER, type ApiConfig } from '@origin-lab/api';
import { checkPagesRoot, createApp as createPages, pagesConfigFromEnv } from '@origin-lab/pages';
import { createApp as createUpstreamMock } from '@origin-lab/upstream-mock';
import { startWebSocketTarget } from './websocket-target.js';
import { startRebindLab } from './rebind/rebind-lab.js';
import { privateAddress } from './private-address.js';
import type { RebindSite } from '@origin-lab/contract';

export interface EmbeddedOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /**
   * The settings, named as the services' environment variables. Passed in, never read from
   * process.env here: the api's allowlist needs the port the front really got.
   */
  env: Record<string, string | undefined>;
  log?: LogSink;
  /**
   * Caddy runs in front (npm start -- --tls) and tells the api which HTTP version each browser
   * spoke. Without a front that header is dropped, so no client can claim a version for itself.
   */
  behindCaddy?: boolean;
  /** npm start -- --rebind: the DNS rebinding lab beside the service. */
  rebind?: boolean;
}

export interface EmbeddedStack {
  port: number;
  /** The two origins a browser sees as different sites: same server, different host in the address bar. */
  origins: [string, string];
  /** The rebinding lab, when asked for. */
  rebind: RebindSite | null;
  stop(): Promise<void>;
}

/**
 * The embedded default: the api and the pages on one port, no Docker and no Caddy.
 * /api/ and /lab/ go to the api, everything else to the pages; the upstream-mock and the Local Network
 * Access page's WebSocket target run beside them.
 */
export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedStack> {
  let route: Handler = (_req, res) => res.writeHead(503).end();
  let endStreams = () => 0;
  const front = await serve((req, res) => route(req, res), {
    port: options.port,
    host: options.host,
    onStopping: () => endStreams(),
  });

  // A bad setting is found after the front listens: stop it again rather than leave it open.
  let stopUpstream = async () => {};
  let stopWebSocketTarget = async () => {};
  let stopRebindLab = async () => {};
  let rebind: RebindSite | null = null;
  let closeApi = async () => {};
  try {
    const { env } = options;
    const fromEnv = apiConfigFromEnv(env, front.port);
    // The pages' settings and folder, checked before anything else starts.
    checkPagesRoot(pagesConfigFromEnv(env).root);
    let upstreamUrl = fromEnv.upstream.url;
    // The proxy's third party: the upstream-mock on a private loopback port, sharing the api's key,
    // unless UPSTREAM_URL names a real one.
    if (!env.UPSTREAM_URL) {
      const mock = createUpstreamMock({ apiKey: fromEnv.upstream.apiKey, log: options.log });
      const upstream = await serve(mock.callback(), { port: 0, host: '127.0.0.1', onStopping: () => mock.release() });
      upstreamUrl = `http://127.0.0.1:${upstream.port}`;
      stopUpstream = () => upstream.stop();
    }
    const config: ApiConfig = {
      ...fromEnv,
      log: options.log ?? fromEnv.log,
      upstream: { ...fromEnv.upstream, url: upstreamUrl },
    };
    const api = createApi(config);
    const apiHandler = api.callback();
    // The WebSocket target, unless WEBSOCKET_TARGET_PORT names one already running.
    let websocketPort = env.WEBSOCKET_TARGET_PORT;
    if (!websocketPort) {
      const target = await startWebSocketTarget();
      websocketPort = String(target.port);
      stopWebSocketTarget = () => target.stop();
    }
    const rebindLab = options.rebind ? await startRebindLab() : null;
    if (rebindLab) stopRebindLab = () => rebindLab.stop();
    rebind = rebindLab?.site ?? null;
    const pagesHandler = createPages({
      ...pagesConfigFromEnv({ ...env, WEBSOCKET_TARGET_PORT: websocketPort }),
      rebind: rebindLab?.site ?? null,
      // Where the front listens on every address, one of this machine's private ones.
      privateAddress: !options.host || options.host === '0.0.0.0' || options.host === '::' ? privateAddress() : null,
    }).callback();
    endStreams = () => api.endStreams();
    closeApi = () => api.close();
    route = (req, res) => {
      // Only a front may say which HTTP version the browser spoke.
      if (!options.behindCaddy) delete req.headers[HTTP_VERSION_HEADER];
      req.url = originForm(req.url ?? '/');
      return isApiPath(req.url) ? apiHandler(req, res) : pagesHandler(req, res);
    };
  } catch (err) {
    await stopRebindLab();
    await stopWebSocketTarget();
    await stopUpstream();
    await front.stop();
    throw err;
  }

  return {
    port: front.port,
    origins: [`http://localhost:${front.port}`, `http://127.0.0.1:${front.port}`],
    rebind,
    stop: async () => {
      await front.stop();
      await closeApi();
      await stopUpstream();
      await stopWebSocketTarget();
      await stopRebindLab();
    },
  };
}

/**
 * A request target in the form the apps read (/path?query). The absolute form (GET
 * http://host/api/posts), which a server must accept (RFC 9112, 3.2.2), is handed on as its path
 * and query, as a front does.
 */
function originForm(target: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target) || !URL.canParse(target)) return target;
  const { pathname, search } = new URL(target);
  return `${pathname}${search}`;
}

/** Whether a request target is the api's: /api and what is under it, and the lab's /lab/. */
function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || url.startsWith('/lab/');
}
