import { ConfigError, envInt, stopOnSignals } from '@origin-lab/server-kit';
import { startEmbedded } from './embedded.js';

try {
  const port = envInt(process.env, 'PORT', 8080, 0, 65_535);
  const stack = await startEmbedded({ port, host: process.env.HOST || undefined });
  const [first, second] = stack.origins;
  process.stderr.write(
    [
      '',
      'Origin Lab is running. Open the same pages on two origins:',
      `  ${first}/`,
      `  ${second}/`,
      'A page on one is cross-origin to the other. Ctrl-C stops.',
      '',
    ].join('\n') + '\n',
  );
  stopOnSignals(() => stack.stop(), (line) => process.stderr.write(`${line}\n`));
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`configuration error: ${err.message}\n`);
    process.exit(2);
  }
  if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    process.stderr.write(`port ${process.env.PORT ?? 8080} is taken: start with another, e.g. PORT=8081 npm start\n`);
    process.exit(2);
  }
  throw err;
}
