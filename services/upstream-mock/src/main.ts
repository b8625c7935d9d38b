import { ConfigError, DEV_UPSTREAM_KEY, listenFromEnv, stdoutLog, serve, stopOnSignals } from '@origin-lab/server-kit';
import { createApp } from './app.js';
import { UPSTREAM_LISTEN_SETTINGS, upstreamConfigFromEnv } from './config.js';

try {
  const { port, host } = listenFromEnv(UPSTREAM_LISTEN_SETTINGS, process.env);
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
