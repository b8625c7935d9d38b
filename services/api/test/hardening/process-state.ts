import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** A full garbage collection, so heap figures compare live objects, not garbage. */
const collect = runInNewContext('gc') as () => void;

export interface ProcessState {
  /** Live handles and requests by type: Timeout, TCPSocketWrap, TCPServerWrap, ... */
  resources: Record<string, number>;
  heapUsed: number;
}

export function processState(): ProcessState {
  collect();
  collect();
  const resources: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) resources[type] = (resources[type] ?? 0) + 1;
  return { resources, heapUsed: process.memoryUsage().heapUsed };
}

/** Resource types that have more live instances now than in the baseline. */
export function resourcesAbove(baseline: ProcessState, now: ProcessState): Record<string, number> {
  const extra: Record<string, number> = {};
  for (const [type, count] of Object.entries(now.resources)) {
    const more = count - (baseline.resources[type] ?? 0);
    if (more > 0) extra[type] = more;
  }
  return extra;
}
