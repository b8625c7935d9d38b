import https from 'node:https';
import dnsPacket, { type Answer, type Packet } from 'dns-packet';
import type { LocalAuthority } from '@origin-lab/server-kit/local-authority';

/**
 * The rebinding lab's resolver: DNS over HTTPS (RFC 8484), which Chromium and Firefox can be told
 * to use (a browser profile's secure DNS setting), so the lab decides what a name resolves to.
 * Every name under REBIND_DOMAIN is a rebinding name: the first round of questions for it is
 * answered with the attacker's address, every later one with the victim's, with a TTL of one
 * second. Any other name does not exist. It answers only questions; it forwards nothing.
 */
export const REBIND_DOMAIN = 'rebind.test';

export interface RebindAddresses {
  /** Where a name points first: the attacker's server (an AAAA answer). */
  attacker: string;
  /** Where it points once rebound: the victim (an A answer). */
  victim: string;
}

export interface ResolverLimits {
  /** How long after a name's first question its answers are still the attacker's. */
  firstRoundMs: number;
  /** Most names remembered; the oldest is forgotten first. */
  maxNames: number;
  /** Most bytes of one DNS message. */
  maxMessageBytes: number;
}

export const RESOLVER_LIMITS: ResolverLimits = { firstRoundMs: 1_500, maxNames: 10_000, maxMessageBytes: 4_096 };

/** A label the lab hands out: letters, digits and hyphens. */
const REBIND_NAME = new RegExp(`^[a-z0-9-]{1,63}\\.${REBIND_DOMAIN.replace('.', '\\.')}$`);

export class RebindingAnswers {
  private readonly firstAsked = new Map<string, number>();

  constructor(
    private readonly addresses: RebindAddresses,
    private readonly limits: ResolverLimits = RESOLVER_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer to one query: the attacker's address in the name's first round, the victim's after it. */
  answer(query: Packet): Buffer {
    const question = query.questions?.[0];
    const name = question?.name.toLowerCase() ?? '';
    const known = REBIND_NAME.test(name);
    const answers: Answer[] = [];
    if (known && question) {
      const rebound = this.now() - this.firstAskedAt(name) > this.limits.firstRoundMs;
      if (question.type === 'AAAA' && !rebound)
        answers.push({ type: 'AAAA', name, ttl: 1, data: this.addresses.attacker });
      if (question.type === 'A' && rebound) answers.push({ type: 'A', name, ttl: 1, data: this.addresses.victim });
    }
    return dnsPacket.encode({
      type: 'response',
      id: query.id ?? 0,
      // NXDOMAIN (3) for a name the lab does not answer for.
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (known ? 0 : 3),
      questions: query.questions ?? [],
      answers,
    });
  }

  private firstAskedAt(name: string): number {
    const seen = this.firstAsked.get(name);
    if (seen !== undefined) return seen;
    if (this.firstAsked.size >= this.limits.maxNames) this.firstAsked.delete(this.firstAsked.keys().next().value!);
    const now = this.now();
    this.firstAsked.set(name, now);
    return now;
  }
}

async function messageOf(req: import('node:http').IncomingMessage, limit: number): Promise<Buffer | string> {
  const url = new URL(req.url ?? '/', 'https://resolver');
  if (url.pathname !== '/dns-query') return 'not found: the resolver answers at /dns-query';
  if (req.method === 'GET') {
    const dns = url.searchParams.get('dns');
    return dns === null ? 'a GET needs ?dns= (RFC 8484)' : Buffer.from(dns, 'base64url');
  }
  if (req.method !== 'POST') return 'only GET and POST';
  if (req.headers['content-type'] !== 'application/dns-message') return 'Content-Type must be application/dns-message';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return `a DNS message is at most ${limit} bytes`;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export interface RunningResolver {
  /** The DoH template a browser is given: https://127.0.0.1:<port>/dns-query{?dns} */
  template: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts the resolver on 127.0.0.1 at port (0: a free one), its certificate signed by the given authority. */
export async function startResolver(
  answers: RebindingAnswers,
  tls: LocalAuthority,
  port = 0,
  limits = RESOLVER_LIMITS,
): Promise<RunningResolver> {
  const server = https.createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => {
    messageOf(req, limits.maxMessageBytes).then(
      (message) => {
        if (typeof message === 'string')
          return res.writeHead(400, { 'Content-Type': 'text/plain' }).end(`${message}\n`);
        let query: Packet;
        try {
          query = dnsPacket.decode(message);
        } catch {
          return res.writeHead(400, { 'Content-Type': 'text/plain' }).end('not a DNS message\n');
        }
        const out = answers.answer(query);
        res.writeHead(200, { 'Content-Type': 'application/dns-message', 'Cache-Control': 'max-age=0' }).end(out);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  return {
    template: `https://127.0.0.1:${bound}/dns-query{?dns}`,
    port: bound,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
