import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Calls done once, when the response has been handed to the connection ('finish', completed:
 * true) or when the connection closed before that (a client that went away, completed: false).
 * Listens to 'finish' and to the socket's 'close' rather than to the response's 'close': measured
 * on the echo, a 'close' listener on every response cost the api 7% of its throughput, these two
 * almost nothing (docs/performance.md).
 */
export function onResponseDone(req: IncomingMessage, res: ServerResponse, done: (completed: boolean) => void): void {
  const socket = req.socket;
  // Already gone: its 'close' has been emitted, but the response's own 'close' is still to come.
  if (socket.destroyed) {
    res.once('close', () => done(false));
    return;
  }
  const finished = () => {
    stop();
    // A handler that ends its answer when the client has gone ('close' came first) still gets
    // 'finish': the answer never reached anyone.
    done(!res.destroyed);
  };
  const closed = () => {
    stop();
    done(false);
  };
  const stop = () => {
    res.removeListener('finish', finished);
    socket.removeListener('close', closed);
  };
  res.on('finish', finished);
  socket.on('close', closed);
}
