// The small servers npm start runs beside the lab (never the api or the pages), as /site-config.js
// names them: only the Local Network Access page loads this.
import type { RebindSite } from '@origin-lab/contract';

interface LabServers {
  ORIGIN_LAB_SITE?: { websocketTargetPort?: number | null; rebind?: RebindSite };
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
