import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webkitDriver } from '../src/browsers.js';
import { DriverGroup, freePort } from '../src/webkit-driver.js';

// The real WebKitWebDriver in its real group (Xvfb, a session bus): a start takes a second or
// two on a quiet machine, longer beside the engine tests.
const START_MS = 90_000;

describe.skipIf(!existsSync(webkitDriver))('WebKitWebDriver on a port taken after it was picked', () => {
  let taken: Server;
  let takenPort = 0;
  beforeAll(async () => {
    // The start asks the port for the driver's status until the driver exits: each of those
    // connections is closed at once, so that none holds the server open after the tests.
    taken = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    takenPort = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it(
    'starts on the next pick, and answers there',
    async () => {
      const picks: number[] = [];
      const driver = await DriverGroup.start({}, webkitDriver, undefined, async () => {
        const port = picks.length === 0 ? takenPort : await freePort();
        picks.push(port);
        return port;
      });
      try {
        expect(picks).toEqual([takenPort, driver.port]);
        expect(driver.port).not.toBe(takenPort);
        const status = (await (await fetch(`http://127.0.0.1:${driver.port}/status`)).json()) as {
          value: { ready: boolean };
        };
        expect(status.value.ready).toBe(true);
      } finally {
        await driver.stop();
      }
    },
    START_MS,
  );

  it(
    'gives up after three picks, saying why',
    async () => {
      let picks = 0;
      const started = DriverGroup.start({}, webkitDriver, undefined, async () => {
        picks += 1;
        return takenPort;
      });
      await expect(started).rejects.toThrow(/exited at start[\s\S]*Unable to listen for HTTP server/);
      expect(picks).toBe(3);
    },
    START_MS,
  );
});
