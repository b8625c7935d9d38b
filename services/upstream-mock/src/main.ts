import {
  DEV_UPSTREAM_KEY,
  listenFromEnv,
  startFailure,
  type Listen,
  stdoutLog,
  serve,
  stopOnSignals,
} from '@origin-lab/server-kit';
import { createApp } from './app.js';
import { UPSTREAM_LISTEN_SETTINGS, upstreamConfigFromEnv } from './config.js';

let listen: Listen | undefined;
try {
  listen = listenFromEnv(UPSTREAM_LISTEN_SETTINGS, process.env);
  const { port, host } = listen;
  const config = upstreamConfigFromEnv(process.env, stdoutLog);
  const app = createApp(config);
  const running = await serve(app.callback(), { port, host, onStopping: () => app.release() });
  config.log({ msg: 'upstream-mock listening', port: running.port, devKey: config.apiKey === DEV_UPSTREAM_KEY });
  stopOnSignals(() => running.stop());
} catch (err) {
  const said = startFailure(err, listen);
  if (said === null) throw err;
  console.error(said);
  process.exit(2);
}
