import type { Server } from 'node:net';

/** A server a test or benchmark started on loopback: its port and base URL (http://127.0.0.1:PORT). */
export interface Listening {
  port: number;
  url: string;
}

/** How many client connections the server holds open now. */
export function openConnections(server: Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((err, count) => (err ? reject(err) : resolve(count))));
}
