import { ConfigError, serve, stopOnSignals } from '@origin-lab/server-kit';
import { apiConfigFromEnv, apiListenFromEnv } from './config.js';
import { createApp } from './app.js';

try {
  const { port, host } = apiListenFromEnv(process.env);
  const config = apiConfigFromEnv(process.env, port);
  const app = createApp(config);
  const running = await serve(app.callback(), { port, host, onStopping: () => app.endStreams() });
  config.log({ msg: 'api listening', port: running.port, allowedOrigins: config.allowedOrigins });
  stopOnSignals(() => running.stop());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`configuration error: ${err.message}`);
  process.exit(2);
}
