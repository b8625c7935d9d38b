/** The HTTP version this page itself came over ("http/1.1", "h2", ...), when the engine says. */
export function pageProtocol(): string {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.nextHopProtocol || 'unknown';
}
