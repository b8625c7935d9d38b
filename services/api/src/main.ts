import { startServer, serve, stopOnSignals } from '@origin-lab/server-kit';
import { API_LISTEN_SETTINGS, apiConfigFromEnv } from './config.js';
import { createApp } from './app.js';

/** How long a start waits for Redis before serving anyway (degraded answers until it comes). */
const REDIS_START_WAIT_MS = 10_000;

await startServer(API_LISTEN_SETTINGS, async ({ port, host }) => {
  const config = apiConfigFromEnv(process.env, port);
  const app = createApp(config);
  if (config.redis !== null && !(await app.whenStateReady(REDIS_START_WAIT_MS))) {
    config.log({ msg: 'serving without Redis for now: state answers 503 until it is reachable' });
  }
  const running = await serve(app.callback(), { port, host, onStopping: () => app.endStreams() });
  config.log({
    msg: 'api listening',
    port: running.port,
    replica: config.replica,
    state: config.redis === null ? 'memory' : 'redis',
    allowedOrigins: config.allowedOrigins,
  });
  stopOnSignals(async () => {
    await running.stop();
    await app.close();
  });
});
