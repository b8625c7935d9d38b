/**
 * Proof pages (--proof <dir>): for each high or critical finding, one self-contained HTML page per
 * attacker origin that, hosted at that origin and opened by a signed-in user, sends the same
 * request the engine sent and shows what the page could read: the pattern security reports attach
 * ("a readable cross-origin authenticated body in a real browser"). The check writes them and
 * never opens them: they run only where a person puts them. A request that changes state waits
 * for a press of its button; a read runs on load.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAFE_METHODS } from '@origin-lab/contract/fetch-metadata';
import { CommandError } from '../terminal.js';
import type { Context } from '../drivers/probe-page.js';
import { preflightApproved, SEVERITY_ORDER, type Finding } from './findings.js';
import { originLabel, triedOriginLabel } from './not-tried.js';
import type { CellRun, EngineInfo } from './run-check.js';
import { fileErrorWords, makeFolder } from '../user-file.js';

export interface Proof {
  /** The finding it proves, and the origin it must be hosted at ("null" ones at any site). */
  finding: string;
  origin: string;
  /** The file's name in the --proof folder. */
  file: string;
}

/** What one proof page carries: the request, where it must run, and what the check saw. */
interface ProofCase {
  title: string;
  origin: string;
  context: Context;
  /** Where the request goes: the run's target, or the error answer's URL it was read at (--also-url). */
  target: string;
  method: string;
  headers: [string, string][];
  credentials: boolean;
  body: string | null;
  /** A request that changes state: sent only when the reader presses the button. */
  changesState: boolean;
  seen: { engine: string; status: number | null; readable: boolean }[];
  version: string;
  foundAt: string;
}

/** The kinds a proof page can show: an attacker origin's request with the user's cookies. */
const PROVABLE = new Set(['hostile-read-credentials', 'session-leak', 'hostile-write', 'hostile-preflight']);

/** The run that best shows a finding from one origin: a read with credentials, else what was sent. */
function bestRun(finding: Finding, runs: readonly CellRun[], origin: string): CellRun | undefined {
  const candidates = runs.filter(
    (run) => originLabel(run) === origin && finding.cells.includes(run.cell.id) && run.cell.credentials,
  );
  return (
    candidates.find((run) => run.readable && !SAFE_METHODS.includes(run.cell.method)) ??
    candidates.find((run) => run.readable) ??
    candidates.find(preflightApproved)
  );
}

/** The proof cases of a run's findings at or above high. */
export function proofCases(
  findings: readonly Finding[],
  runs: readonly CellRun[],
  engines: readonly EngineInfo[],
  meta: { target: string; version: string; startedAt: string },
): { finding: Finding; proof: ProofCase }[] {
  const cases: { finding: Finding; proof: ProofCase }[] = [];
  for (const finding of findings) {
    if (!PROVABLE.has(finding.kind) || SEVERITY_ORDER[finding.severity] < SEVERITY_ORDER.high) continue;
    for (const origin of finding.origins) {
      const run = bestRun(finding, runs, origin);
      if (!run) continue;
      const same = runs.filter((r) => originLabel(r) === origin && r.cell.id === run.cell.id && r.couldNot === null);
      const target = run.cell.url ?? meta.target;
      cases.push({
        finding,
        proof: {
          title: `${origin} ${run.readable ? 'reads' : 'sends'} ${run.cell.method} ${target} with the user’s cookies`,
          origin: run.origin.context === 'page' ? run.origin.origin : 'null',
          context: run.origin.context,
          target,
          method: run.cell.method,
          headers: run.cell.headers,
          credentials: run.cell.credentials,
          body: run.cell.body,
          changesState: !SAFE_METHODS.includes(run.cell.method),
          seen: same.map((r) => ({
            engine: engines.find((e) => e.name === r.engine)?.label ?? r.engine,
            status: r.status,
            readable: r.readable,
          })),
          version: meta.version,
          foundAt: meta.startedAt,
        },
      });
    }
  }
  return cases;
}

/** A file name from a finding and an origin: letters, digits and dashes. */
const fileName = (index: number, kind: string, origin: string) =>
  `${String(index + 1).padStart(2, '0')}-${kind}-${origin
    .replace(/^[a-z]+:\/\//, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.html`;

/** Writes the proof pages and an index into dir (made if missing); returns what was written. */
export function writeProofs(dir: string, cases: ReturnType<typeof proofCases>): { dir: string; pages: Proof[] } {
  try {
    makeFolder(dir);
    const proofs = cases.map(({ finding, proof }, index) => {
      const file = fileName(index, finding.kind, proof.context === 'page' ? proof.origin : `null-${proof.context}`);
      writeFileSync(join(dir, file), proofDocument(proof));
      return { finding: finding.id, origin: triedOriginLabel(proof), file };
    });
    writeFileSync(join(dir, 'index.html'), indexDocument(proofs));
    return { dir, pages: proofs };
  } catch (err) {
    throw new CommandError(`--proof ${dir}: cannot write there (${fileErrorWords(err)})`);
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;padding:1rem;max-width:50rem;color:#1a1a1a;background:#fff}
h1{font-size:1.3rem}code,pre{font-family:ui-monospace,monospace;overflow-wrap:anywhere;white-space:pre-wrap}
pre{background:#f3f3f3;padding:.75rem;border-radius:4px;max-height:24rem;overflow:auto}
dt{font-weight:600}dd{margin:0 0 .5rem}button{font:inherit;padding:.5rem 1rem}
.read{color:#0b6b0b}.refused{color:#a10000}`;

/** One proof page: what it shows, then the script that sends the request (proofMain). */
export function proofDocument(proof: ProofCase): string {
  const where =
    proof.context === 'page'
      ? `Host this file at <code>${escapeHtml(proof.origin)}</code>`
      : `Host this file at any site: it makes a ${proof.context === 'sandboxed-frame' ? 'sandboxed frame' : 'data: URL worker'}, whose origin is <code>null</code>, and sends the request from there`;
  const headers = proof.headers.map(([name, value]) => `${name}: ${value}`).join('\n') || '(none)';
  const seen = proof.seen
    .map((s) => `<li>${escapeHtml(s.engine)}: ${s.readable ? `read, status ${s.status}` : 'sent, not readable'}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Proof: ${escapeHtml(proof.title)}</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body><main>
<h1>${escapeHtml(proof.title)}</h1>
<p>${where}, then open it in a browser where you are signed in to <code>${escapeHtml(proof.target)}</code>. It sends the request below with that browser's cookies and shows what this page could read.${proof.changesState ? ' <strong>This request changes state on the server: it is sent only when you press the button.</strong>' : ''}</p>
<dl><dt>Request</dt><dd><code>${escapeHtml(proof.method)} ${escapeHtml(proof.target)}</code>, credentials: ${proof.credentials ? 'include' : 'omit'}</dd>
<dt>Headers</dt><dd><pre>${escapeHtml(headers)}</pre></dd>${proof.body === null ? '' : `<dt>Body</dt><dd><pre>${escapeHtml(proof.body)}</pre></dd>`}
<dt>What origin-lab check ${escapeHtml(proof.version)} saw (${escapeHtml(proof.foundAt)})</dt><dd><ul>${seen}</ul></dd></dl>
<p><button type="button" id="send">${proof.changesState ? 'Send it' : 'Send it again'}</button></p>
<h2>What this page could read</h2>
<p id="status" role="status" aria-live="polite">${proof.changesState ? 'Not sent yet.' : 'Sending…'}</p>
<pre id="answer" hidden></pre>
</main>
<script type="application/json" id="proof">${scriptJson({ ...proof, title: undefined })}</script>
<script>(${proofMain.toString().replace(/<\//g, '<\\/')})();</script>
</body></html>
`;
}

/**
 * Runs in the proof page: sends the request from the page, a sandboxed frame or a data: URL
 * worker, and shows the status, the readable headers and the body (only in this page: nothing is
 * sent anywhere but the target). Its source is what the page carries, so it uses nothing outside.
 */
function proofMain(): void {
  const proof = JSON.parse(document.getElementById('proof')!.textContent!) as ProofCase;
  const status = document.getElementById('status')!;
  const answer = document.getElementById('answer')!;
  // Takes what it needs as an argument: its source text also runs alone, in the frame or worker.
  const request = async (proof: Pick<ProofCase, 'target' | 'method' | 'headers' | 'credentials' | 'body'>) => {
    try {
      const response = await fetch(proof.target, {
        method: proof.method,
        headers: proof.headers,
        credentials: proof.credentials ? 'include' : 'same-origin',
        mode: 'cors',
        body: proof.body,
      });
      const headers: string[] = [];
      response.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
      return { readable: true, status: response.status, headers, body: await response.text() };
    } catch (err) {
      return { readable: false, status: null, headers: [], body: `${(err as Error).name}: ${(err as Error).message}` };
    }
  };
  type Result = Awaited<ReturnType<typeof request>>;
  const show = (result: Result, ranAt: string) => {
    status.className = result.readable ? 'read' : 'refused';
    status.textContent = result.readable
      ? `Read from ${ranAt}: status ${result.status}, ${result.body.length} characters.`
      : `Not readable from ${ranAt} (${result.body}): this browser refused, or the server no longer allows it.`;
    answer.hidden = !result.readable;
    answer.textContent = result.readable ? `${result.headers.join('\n')}\n\n${result.body}` : '';
    document.body.dataset.state = result.readable ? 'read' : 'refused';
    document.body.dataset.status = String(result.status ?? '');
    document.body.dataset.length = String(result.readable ? result.body.length : '');
  };
  const glue = `const post = (message) => (typeof window === 'undefined' ? self.postMessage(message) : parent.postMessage(message, '*'));
(${request.toString()})(${JSON.stringify(proof)}).then((result) => post({ result, ranAt: self.origin }));`;
  const send = () => {
    status.textContent = 'Sending…';
    document.body.dataset.state = 'sending';
    if (proof.context === 'page') return void request(proof).then((result) => show(result, self.origin));
    const receive = (data: { result: Result; ranAt: string }) => show(data.result, data.ranAt);
    if (proof.context === 'data-worker') {
      const worker = new Worker(`data:text/javascript,${encodeURIComponent(glue)}`);
      worker.onmessage = (event) => receive(event.data);
      return;
    }
    const frame = document.createElement('iframe');
    frame.sandbox.add('allow-scripts');
    frame.hidden = true;
    frame.srcdoc = `<!doctype html><script>${glue.replace(/<\//g, '<\\/')}</script>`;
    window.addEventListener('message', (event) => {
      if (event.source === frame.contentWindow) receive(event.data);
    });
    document.body.append(frame);
  };
  document.getElementById('send')!.addEventListener('click', send);
  if (!proof.changesState) send();
}

/** The folder's index: each proof page, the finding it proves and where to host it. */
function indexDocument(proofs: readonly Proof[]): string {
  const rows = proofs
    .map(
      (p) =>
        `<li><a href="${encodeURI(p.file)}">${escapeHtml(p.file)}</a>: host at <code>${escapeHtml(p.origin)}</code> (${escapeHtml(p.finding)})</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>origin-lab check: proof pages</title><style>${STYLE}</style></head>
<body><main><h1>Proof pages</h1>
<p>Each page sends one request an attacker origin could send with a signed-in user's cookies. Host it at the origin named, open it signed in: it shows what that origin can read. The check wrote them and never opened them.</p>
<ul>
${rows || '<li>No finding at or above high: nothing to prove.</li>'}
</ul></main></body></html>
`;
}

/** One line for the terminal and Markdown reports. */
export function proofsText(proofs: { dir: string; pages: readonly Proof[] }): string {
  return proofs.pages.length === 0
    ? `Proof pages: none (no finding at or above high) in ${proofs.dir}`
    : `Proof pages: ${proofs.pages.length} in ${proofs.dir} (index.html says at which origin to host each; open it signed in)`;
}
