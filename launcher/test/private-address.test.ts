import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { privateAddress } from '../src/private-address.js';

/** Interfaces as os.networkInterfaces() gives them: only the fields the choice reads. */
const address = (address: string, internal = false): NetworkInterfaceInfo =>
  ({ address, family: address.includes(':') ? 'IPv6' : 'IPv4', internal }) as NetworkInterfaceInfo;

describe("the private address the Local Network Access page calls (the WICG draft's private ranges)", () => {
  it.each([
    ['a LAN address (192.168/16)', { eth0: [address('192.168.1.20')] }, '192.168.1.20'],
    ['10/8', { wlan0: [address('10.1.2.3')] }, '10.1.2.3'],
    ['172.16/12, not 172.32', { eth0: [address('172.32.0.1'), address('172.20.0.5')] }, '172.20.0.5'],
    ['an IPv6 unique local address, in brackets', { eth0: [address('192.0.2.2'), address('fd00::2')] }, '[fd00::2]'],
    ['IPv4 before IPv6', { eth0: [address('fd00::2')], eth1: [address('192.168.0.2')] }, '192.168.0.2'],
    [
      'none: loopback and public addresses only',
      { lo: [address('127.0.0.1', true)], eth0: [address('192.0.2.2')] },
      null,
    ],
    [
      'none: a container bridge is passed over',
      { 'br-f3082ddfdfa9': [address('172.24.0.1')], docker0: [address('172.17.0.1')] },
      null,
    ],
  ])('%s', (_what, interfaces, expected) => {
    expect(privateAddress(interfaces)).toBe(expected);
  });
});
