// The small servers npm start runs beside the lab (never the api or the pages), as /site-config.js
// names them: only the Local Network Access page loads this.
import type { RebindSite } from '@origin-lab/contract';

interface LabServers {
  ORIGIN_LAB_SITE?: { websocketTargetPort?: number | null; rebind?: RebindSite; privateAddress?: string };
}

const site = () => (globalThis as LabServers).ORIGIN_LAB_SITE;

/** The loopback port of the WebSocket target (WEBSOCKET_TARGET_PORT), or null. */
export function websocketTargetPort(): number | null {
  return site()?.websocketTargetPort ?? null;
}

/** The DNS rebinding lab (npm start -- --rebind), or null when it is off. */
export function rebindSite(): RebindSite | null {
  return site()?.rebind ?? null;
}

/** One of this machine's private addresses where npm start listens on all of them (IPv6 in brackets), or null. */
export function privateAddress(): string | null {
  return site()?.privateAddress ?? null;
}
