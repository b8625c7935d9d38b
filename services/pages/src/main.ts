import { jsonLinesToStdout, readSettings, serve, startServer, stopOnSignals } from '@origin-lab/server-kit';
import { createApp } from './app.js';
import { checkPagesRoot, pagesConfigFromEnv, PAGES_LISTEN_SETTINGS, PAGES_START_SETTINGS } from './config.js';
import { studentAnnouncement } from './student-origins.js';

await startServer(PAGES_LISTEN_SETTINGS, async ({ port, host }) => {
  const { studentOrigins } = readSettings(PAGES_START_SETTINGS, process.env);
  const config = pagesConfigFromEnv(process.env);
  checkPagesRoot(config.root);
  const app = createApp(config);
  const running = await serve(app.callback(), { port, host });
  jsonLinesToStdout({ msg: 'pages listening', port: running.port });
  if (studentOrigins.length > 0) process.stdout.write(`${studentAnnouncement(studentOrigins)}\n`);
  stopOnSignals(() => running.stop());
});
