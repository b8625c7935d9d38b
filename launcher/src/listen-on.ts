import type http from 'node:http';

/** Listens on one address and port (0: a free one); rejects with the error if it cannot. */
export function listenOn(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
