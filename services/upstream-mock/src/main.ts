import { ConfigError, stdoutLog, serve, stopOnSignals } from '@origin-lab/server-kit';
import { createApp } from './app.js';
import { upstreamConfigFromEnv, upstreamListenFromEnv } from './config.js';
import { DEV_UPSTREAM_KEY } from './key.js';

try {
  const { port, host } = upstreamListenFromEnv(process.env);
  const config = upstreamConfigFromEnv(process.env, stdoutLog);
  const app = createApp(config);
  const running = await serve(app.callback(), { port, host, onStopping: () => app.release() });
  config.log({ msg: 'upstream-mock listening', port: running.port, devKey: config.apiKey === DEV_UPSTREAM_KEY });
  stopOnSignals(() => running.stop());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`configuration error: ${err.message}`);
  process.exit(2);
}
