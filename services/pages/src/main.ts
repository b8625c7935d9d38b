import { envInt, envString, jsonLinesToStdout, serve, stopOnSignals } from '@origin-lab/server-kit';
import { createApp, defaultPagesRoot } from './app.js';
import { DEFAULT_SITE_PAIRS, parseSitePairs } from './site-pairs.js';

const port = envInt(process.env, 'PORT', 3001, 0, 65_535);
const app = createApp({
  root: envString(process.env, 'PAGES_ROOT', defaultPagesRoot),
  sitePairs: parseSitePairs(envString(process.env, 'SITE_PAIRS', DEFAULT_SITE_PAIRS)),
});
const running = await serve(app.callback(), { port, host: process.env.HOST || undefined });
jsonLinesToStdout({ msg: 'pages listening', port: running.port });
stopOnSignals(() => running.stop());
