import { ConfigError, envInt, jsonLinesToStdout, serve, stopOnSignals } from '@origin-lab/server-kit';
import { createApp } from './app.js';
import { DEV_UPSTREAM_KEY, upstreamKeyFromEnv } from './key.js';

try {
  const port = envInt(process.env, 'PORT', 8090, 0, 65_535);
  const apiKey = upstreamKeyFromEnv(process.env);
  const maxDelayMs = envInt(process.env, 'MOCK_MAX_DELAY_MS', 60_000, 0, 600_000);
  const app = createApp({ apiKey, log: jsonLinesToStdout, maxDelayMs });
  const running = await serve(app.callback(), { port, host: process.env.HOST || undefined, onStopping: () => app.release() });
  jsonLinesToStdout({ msg: 'upstream-mock listening', port: running.port, devKey: apiKey === DEV_UPSTREAM_KEY });
  stopOnSignals(() => running.stop());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`configuration error: ${err.message}`);
  process.exit(2);
}
