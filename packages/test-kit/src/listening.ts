/** A server a test or benchmark started on loopback: its port and base URL (http://127.0.0.1:PORT). */
export interface Listening {
  port: number;
  url: string;
}
