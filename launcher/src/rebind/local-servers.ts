import http from 'node:http';
import { listenOn } from '../listen-on.js';

/**
 * The two "local servers" of the rebinding lab, each at one port on both loopback addresses. On
 * 127.0.0.1 it is the victim: a server on the user's machine with something to read at /secret.
 * On [::1] the same port is the attacker's: the page that, once its name points at 127.0.0.1,
 * reads /secret "same-origin". `open` answers any Host; `checked` answers only its own names and
 * refuses another Host or Origin with 403, which is the defence.
 */
export type LocalServerKind = 'open' | 'checked';

export interface LocalServer {
  kind: LocalServerKind;
  port: number;
  stop(): Promise<void>;
}

/** Every answer closes its connection, so each fetch of the attack page looks its name up again. */
const CLOSE = { Connection: 'close', 'Cache-Control': 'no-store' };

function json(res: http.ServerResponse, status: number, body: object): void {
  res.writeHead(status, { ...CLOSE, 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/** The attack page: asks /secret until the victim answers or its deadline passes, and tells the page that framed it. */
const ATTACK_PAGE = `<!doctype html><meta charset="utf-8"><title>A rebinding attack</title>
<p id="state">asking /secret until this name points at the victim...</p>
<script>
const params = new URLSearchParams(location.search);
const report = params.get('report');
const canReport = report !== null && /^https?:[/][/][^/]+$/.test(report);
const deadline = Math.min(Number(params.get('deadline')) || 90000, 180000);
const started = performance.now();
let tries = 0;
function tell(result) {
  document.getElementById('state').textContent = JSON.stringify(result);
  if (canReport) parent.postMessage({ kind: 'rebind', ...result }, report);
}
let failures = 0;
async function ask() {
  tries += 1;
  const waitedMs = () => Math.round(performance.now() - started);
  try {
    const answer = await fetch('/secret', { cache: 'no-store' });
    failures = 0;
    const body = await answer.json();
    if (body.server === 'victim')
      return tell({ outcome: answer.ok ? 'read' : 'refused', status: answer.status, refused: body.refused, tries, waitedMs: waitedMs() });
  } catch (err) {
    // The attacker's own server always answers: three failures in a row are the browser refusing.
    failures += 1;
    if (failures >= 3) return tell({ outcome: 'failed', error: err.name, tries, waitedMs: waitedMs() });
  }
  if (performance.now() - started > deadline) return tell({ outcome: 'not-rebound', tries, waitedMs: waitedMs() });
  setTimeout(ask, 1000);
}
if (canReport) parent.postMessage({ kind: 'rebind', outcome: 'started' }, report);
ask();
</script>`;

function hostAllowed(host: string | undefined, port: number): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].some((name) => host === `${name}:${port}`);
}

function originAllowed(origin: string | undefined, port: number): boolean {
  return (
    origin === undefined || ['localhost', '127.0.0.1', '[::1]'].some((name) => origin === `http://${name}:${port}`)
  );
}

function handler(kind: LocalServerKind, port: () => number): http.RequestListener {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    const attacker = req.socket.localAddress === '::1';
    if (attacker) {
      if (path === '/' && req.method === 'GET')
        return res.writeHead(200, { ...CLOSE, 'Content-Type': 'text/html; charset=utf-8' }).end(ATTACK_PAGE);
      return json(res, 404, { server: 'attacker', detail: 'the name still points at the attacker' });
    }
    if (path !== '/secret') return json(res, 404, { server: 'victim', detail: 'try /secret' });
    if (kind === 'checked' && !hostAllowed(req.headers.host, port()))
      return json(res, 403, {
        server: 'victim',
        refused: 'Host',
        detail: `${req.headers.host ?? '(none)'} is not one of my names`,
      });
    if (kind === 'checked' && !originAllowed(req.headers.origin, port()))
      return json(res, 403, { server: 'victim', refused: 'Origin', detail: `${req.headers.origin} may not call me` });
    json(res, 200, { server: 'victim', kind, secret: 'what a server on your machine keeps: files, keys, tools' });
  };
}

/** A local server of this kind on 127.0.0.1 and [::1] at one port (0: a free one). */
export async function startLocalServer(kind: LocalServerKind, at = 0): Promise<LocalServer> {
  let port = 0;
  const onV4 = http.createServer(handler(kind, () => port));
  await listenOn(onV4, at, '127.0.0.1');
  port = (onV4.address() as { port: number }).port;
  const onV6 = http.createServer(handler(kind, () => port));
  try {
    await listenOn(onV6, port, '::1');
  } catch (err) {
    onV4.close();
    throw new Error(`the rebinding lab needs IPv6 on loopback ([::1]): ${(err as Error).message}`);
  }
  return {
    kind,
    port,
    stop: async () => {
      for (const server of [onV4, onV6]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}
