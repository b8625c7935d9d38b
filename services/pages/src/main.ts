import { envInt, jsonLinesToStdout, serve, stopOnSignals } from '@origin-lab/server-kit';
import { createApp } from './app.js';
import { pagesConfigFromEnv } from './config.js';
import { studentAnnouncement, studentOriginsFromEnv } from './student-origins.js';

const port = envInt(process.env, 'PORT', 3001, 0, 65_535);
const app = createApp(pagesConfigFromEnv(process.env));
const studentOrigins = studentOriginsFromEnv(process.env);
const running = await serve(app.callback(), { port, host: process.env.HOST || undefined });
jsonLinesToStdout({ msg: 'pages listening', port: running.port });
if (studentOrigins.length > 0) process.stdout.write(`${studentAnnouncement(studentOrigins)}\n`);
stopOnSignals(() => running.stop());
