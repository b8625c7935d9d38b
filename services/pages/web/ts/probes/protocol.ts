/** The HTTP version this page itself came over ("http/1.1", "h2", ...), when the engine says. */
export function pageProtocol(): string {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.nextHopProtocol || 'unknown';
}

/**
 * Whether fetch can send a ReadableStream as a request body. Engines without it ignore the
 * duplex option and turn the stream into the text "[object ReadableStream]".
 */
export function supportsRequestStreams(): boolean {
  let duplexAccessed = false;
  const init = {
    body: new ReadableStream(),
    method: 'POST',
    get duplex() {
      duplexAccessed = true;
      return 'half';
    },
  };
  const hasContentType = new Request('data:,', init as RequestInit).headers.has('Content-Type');
  return duplexAccessed && !hasContentType;
}
