import { DEV_UPSTREAM_KEY, startServer, stdoutLog, serve, stopOnSignals } from '@origin-lab/server-kit';
import { createApp } from './app.js';
import { UPSTREAM_LISTEN_SETTINGS, upstreamConfigFromEnv } from './config.js';

await startServer(UPSTREAM_LISTEN_SETTINGS, async ({ port, host }) => {
  const config = upstreamConfigFromEnv(process.env, stdoutLog);
  const app = createApp(config);
  const running = await serve(app.callback(), { port, host, onStopping: () => app.release() });
  config.log({ msg: 'upstream-mock listening', port: running.port, devKey: config.apiKey === DEV_UPSTREAM_KEY });
  stopOnSignals(() => running.stop());
});
