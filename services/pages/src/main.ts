import { envInt, jsonLinesToStdout, serve, stopOnSignals } from '@origin-lab/server-kit';
import { createApp } from './app.js';
import { pagesConfigFromEnv } from './config.js';

const port = envInt(process.env, 'PORT', 3001, 0, 65_535);
const app = createApp(pagesConfigFromEnv(process.env));
const running = await serve(app.callback(), { port, host: process.env.HOST || undefined });
jsonLinesToStdout({ msg: 'pages listening', port: running.port });
stopOnSignals(() => running.stop());
