import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Calls done once, when the response has been handed to the connection ('finish') or when the
 * connection closed before that (a client that went away; res.writableFinished is then false).
 * Listens to 'finish' and to the socket's 'close' rather than to the response's 'close': measured
 * on the echo, a 'close' listener on every response cost the api 7% of its throughput, these two
 * almost nothing (docs/performance.md).
 */
export function onResponseDone(req: IncomingMessage, res: ServerResponse, done: () => void): void {
  const socket = req.socket;
  // Already gone: its 'close' has been emitted, but the response's own 'close' is still to come.
  if (socket.destroyed) {
    res.once('close', done);
    return;
  }
  const once = () => {
    res.removeListener('finish', once);
    socket.removeListener('close', once);
    done();
  };
  res.on('finish', once);
  socket.on('close', once);
}
