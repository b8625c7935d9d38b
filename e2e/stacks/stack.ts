/** A running copy of the whole product that the e2e suite can point browsers at. */
export interface Stack {
  name: StackName;
  /** Two origins serving the same content: [the page's own origin, the other origin]. */
  origins: [string, string];
  /** The same server under its third name (SITE_C), on the first origin's scheme and port: the lab's redirect to a third origin. */
  third: string;
  /** PEM file of the CA that signed the stack's TLS certificates, when it has TLS. */
  caCert?: string;
  /**
   * Host names of the origins that no DNS here answers (a LAN's names): the browsers and the
   * suite's own client send them to 127.0.0.1, as the network's DNS would.
   */
  loopbackNames?: readonly string[];
  /** How many api processes answer behind the front (1 unless said). */
  apiReplicas?: number;
  /**
   * Why the stack's front can leave a busy HTTP/2 connection's answers unsent, when it can: a
   * Caddy built with Go older than 1.23 (launcher/src/caddy.ts, http2SchedulerWarning).
   */
  http2Defect?: string | null;
  /** The compose project's name, for `docker-compose --project-name` (the compose stack only). */
  composeProject?: string;
  stop(): Promise<void>;
}

/** What workers need to reach a stack started by the global setup. */
export type StackInfo = Omit<Stack, 'stop'>;

/** What a stack tells its browsers: the CA its TLS front uses, its origins, and the names they resolve to loopback. */
export interface BrowserSettings {
  caCerts: string[];
  /** The stack's origins and its third (WebKit is told per host which certificate to accept: engines/pinned-certificates.ts). */
  origins: readonly string[];
  loopbackNames: readonly string[];
}

/** A stack's browser settings; none for a stack that is not running (the runner's own evaluation). */
export function browserSettings(info: StackInfo | undefined): BrowserSettings {
  return {
    caCerts: info?.caCert ? [info.caCert] : [],
    origins: info ? [...info.origins, info.third] : [],
    loopbackNames: info?.loopbackNames ?? [],
  };
}

export type StackName = 'embedded' | 'lan' | 'caddy' | 'compose';

export function stackEnvName(name: StackName): string {
  return `E2E_STACK_${name.toUpperCase()}`;
}
