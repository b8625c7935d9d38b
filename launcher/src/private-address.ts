import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

/**
 * An address of this machine in a private range as Local Network Access counts them (IPv4
 * 10/8, 172.16/12, 192.168/16; IPv6 fc00::/7), for the Local Network Access page to call this
 * server at: IPv4 first, then IPv6 (in brackets). Container bridges (br-*, docker*, veth*) come
 * and go with containers and are passed over. null when there is none.
 */
const PRIVATE_V4 = /^(10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.)/;
const PRIVATE_V6 = /^f[cd][0-9a-f]{2}:/i;
const CONTAINER_BRIDGE = /^(br-|docker|veth)/;

export function privateAddress(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string | null {
  const addresses = Object.entries(interfaces)
    .filter(([name]) => !CONTAINER_BRIDGE.test(name))
    .flatMap(([, infos]) => infos ?? [])
    .filter((info) => !info.internal);
  const v4 = addresses.find((info) => info.family === 'IPv4' && PRIVATE_V4.test(info.address));
  if (v4) return v4.address;
  const v6 = addresses.find((info) => info.family === 'IPv6' && PRIVATE_V6.test(info.address));
  return v6 ? `[${v6.address}]` : null;
}
