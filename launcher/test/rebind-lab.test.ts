import http from 'node:http';
import https from 'node:https';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dnsPacket, { type Packet } from 'dns-packet';
import { startRebindLab, type RebindLab } from '../src/rebind/rebind-lab.js';
import { RebindingAnswers, RESOLVER_LIMITS } from '../src/rebind/resolver.js';

/**
 * The DNS rebinding lab: its resolver speaks DNS over HTTPS (RFC 8484) as a browser asks it,
 * trusting only the lab's own authority; its two local servers answer as a local server and as
 * the attacker's page, by the address a connection came to.
 */
let lab: RebindLab;
beforeAll(async () => {
  lab = await startRebindLab();
});
afterAll(() => lab.stop());

const query = (name: string, type: 'A' | 'AAAA') =>
  dnsPacket.encode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name }] });

/** A DoH exchange, with the lab's authority as the only one trusted. */
function doh(
  body: Buffer | string,
  headers: Record<string, string> = { 'Content-Type': 'application/dns-message' },
  method = 'POST',
  path = '/dns-query',
) {
  const url = new URL(lab.site.resolver.replace('{?dns}', ''));
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const req = https.request(
      { host: url.hostname, port: url.port, path, method, headers, ca: lab.site.caPem },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const answersOf = async (name: string, type: 'A' | 'AAAA') => {
  const { status, body } = await doh(query(name, type));
  expect(status).toBe(200);
  return dnsPacket.decode(body);
};

describe('the rebinding resolver (DNS over HTTPS)', () => {
  it("answers a rebinding name's first round with the attacker's IPv6 loopback and no IPv4", async () => {
    const name = `first-${Date.now()}.${lab.site.domain}`;
    expect((await answersOf(name, 'AAAA')).answers).toMatchObject([{ type: 'AAAA', data: '::1', ttl: 1 }]);
    expect((await answersOf(name, 'A')).answers).toEqual([]);
  });

  it('after the first round, the victim: 127.0.0.1 and no IPv6 (unit: the clock moved on)', () => {
    let now = 1_000;
    const answers = new RebindingAnswers({ attacker: '::1', victim: '127.0.0.1' }, RESOLVER_LIMITS, () => now);
    const ask = (type: 'A' | 'AAAA') =>
      dnsPacket.decode(answers.answer(dnsPacket.decode(query('x.rebind.test', type)) as Packet)).answers;
    expect(ask('AAAA')).toMatchObject([{ data: '::1' }]);
    now += RESOLVER_LIMITS.firstRoundMs + 1;
    expect(ask('A')).toMatchObject([{ type: 'A', data: '127.0.0.1', ttl: 1 }]);
    expect(ask('AAAA')).toEqual([]);
  });

  it('any other name does not exist (NXDOMAIN): it forwards nothing', async () => {
    const packet = await answersOf('example.com', 'A');
    // dns-packet decodes the response code as rcode; its types leave it out.
    expect((packet as { rcode?: string }).rcode).toBe('NXDOMAIN');
    expect(packet.answers).toEqual([]);
  });

  it('answers a GET with ?dns= as well as a POST', async () => {
    const dns = query(`get-${Date.now()}.${lab.site.domain}`, 'AAAA').toString('base64url');
    const { status, body } = await doh('', {}, 'GET', `/dns-query?dns=${dns}`);
    expect(status).toBe(200);
    expect(dnsPacket.decode(body).answers).toMatchObject([{ data: '::1' }]);
  });

  it.each([
    [
      'another path',
      () => doh(query('a.rebind.test', 'A'), { 'Content-Type': 'application/dns-message' }, 'POST', '/'),
      /at \/dns-query/,
    ],
    ['a GET without ?dns=', () => doh('', {}, 'GET'), /needs \?dns=/],
    [
      'another Content-Type',
      () => doh(query('a.rebind.test', 'A'), { 'Content-Type': 'text/plain' }),
      /application\/dns-message/,
    ],
    ['a message over 4096 bytes', () => doh(Buffer.alloc(5_000)), /at most 4096 bytes/],
    ['bytes that are not DNS', () => doh(Buffer.from('hello')), /not a DNS message/],
  ])('refuses %s with a 400 saying why', async (_what, send, message) => {
    const { status, body } = await send();
    expect(status).toBe(400);
    expect(body.toString()).toMatch(message);
  });
});

describe('the local servers', () => {
  const get = (address: string, port: number, path: string, headers: Record<string, string> = {}) =>
    fetch(`http://${address}:${port}${path}`, { headers });

  it('on 127.0.0.1, the open server lets any Host read /secret', async () => {
    const answer = await get('127.0.0.1', lab.site.ports.open, '/secret');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ server: 'victim', kind: 'open' });
  });

  it('the checked server refuses a Host that is not one of its names, and a foreign Origin: 403', async () => {
    const { checked } = lab.site.ports;
    expect((await get('127.0.0.1', checked, '/secret')).status).toBe(200);
    // fetch sets Host from the URL; a raw request names another, as a rebound page's does.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: checked, path: '/secret', headers: { Host: `x.rebind.test:${checked}` } },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end();
    });
    expect(rebound).toBe(403);
    const foreign = await get('127.0.0.1', checked, '/secret', { Origin: 'http://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ refused: 'Origin' });
  });

  it("on [::1], the attacker's page, whose script is valid JavaScript; /secret there is the attacker's 404", async () => {
    const page = await get('[::1]', lab.site.ports.open, '/');
    const html = await page.text();
    const script = html.slice(html.indexOf('<script>') + 8, html.indexOf('</script>'));
    expect(() => new Script(script)).not.toThrow();
    expect((await get('[::1]', lab.site.ports.open, '/secret')).status).toBe(404);
  });
});
