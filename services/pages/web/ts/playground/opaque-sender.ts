/**
 * Sending a case from an opaque origin: a sandboxed iframe (sandbox="allow-scripts", no
 * allow-same-origin) or a worker loaded from a data: URL. Either one's origin is opaque, so its
 * requests say `Origin: null`, whatever page made it. The same few lines of script run in both:
 * they take { url, init } by postMessage, fetch, and post back what they could read.
 */

/** Where a case is sent from: this page, or one of the two opaque origins. */
export type SentFrom = 'page' | 'sandbox' | 'worker';

/** What the opaque sender posts back. */
export interface OpaqueReply {
  ok: boolean;
  type?: ResponseType;
  status?: number;
  headers?: string[];
  body?: string;
  error?: string;
}

/** The sender's script: plain ES2017, no imports, as both a srcdoc and a data: URL hold it. */
const SENDER = `
const reply = (message) => (typeof window === 'undefined' ? postMessage(message) : parent.postMessage(message, '*'));
onmessage = async (event) => {
  try {
    const response = await fetch(event.data.url, event.data.init);
    reply({ ok: true, type: response.type, status: response.status, headers: [...response.headers.keys()],
      body: await response.text() });
  } catch (error) {
    reply({ ok: false, error: String(error) });
  }
};`;

/** How long the sender may take to answer: a case's own request, plus starting a frame or worker. */
const REPLY_TIMEOUT_MS = 12_000;

/** The request's init as postMessage can carry it: a body only as a string or a Blob. */
export type OpaqueInit = Omit<RequestInit, 'body' | 'signal'> & { body?: string | Blob | null };

/** Posts one request to a fresh sender of that kind and waits for its reply; the sender is removed after. */
export function sendFromOpaqueOrigin(from: 'sandbox' | 'worker', url: string, init: OpaqueInit): Promise<OpaqueReply> {
  return new Promise((resolve) => {
    let finish: (reply: OpaqueReply) => void;
    const timer = setTimeout(
      () => finish({ ok: false, error: `no reply from the ${from} in ${REPLY_TIMEOUT_MS} ms` }),
      REPLY_TIMEOUT_MS,
    );
    if (from === 'worker') {
      const worker = new Worker(`data:text/javascript,${encodeURIComponent(SENDER)}`);
      finish = (reply) => {
        clearTimeout(timer);
        worker.terminate();
        resolve(reply);
      };
      worker.onmessage = (event: MessageEvent<OpaqueReply>) => finish(event.data);
      worker.onerror = (event) => finish({ ok: false, error: `the worker failed: ${event.message || 'no message'}` });
      worker.postMessage({ url, init });
      return;
    }
    const frame = document.createElement('iframe');
    frame.sandbox.add('allow-scripts');
    frame.hidden = true;
    frame.srcdoc = `<script>${SENDER}</script>`;
    const onMessage = (event: MessageEvent<OpaqueReply>) => {
      if (event.source === frame.contentWindow) finish(event.data);
    };
    finish = (reply) => {
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      frame.remove();
      resolve(reply);
    };
    window.addEventListener('message', onMessage);
    frame.addEventListener('load', () => frame.contentWindow?.postMessage({ url, init }, '*'), { once: true });
    document.body.append(frame);
  });
}
