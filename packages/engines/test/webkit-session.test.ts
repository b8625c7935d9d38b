import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { webkitDriver } from '../src/browsers.js';
import { WebKitSession } from '../src/webkit-session.js';

// Real WebKitGTK sessions (the driver, MiniBrowser, Xvfb and a session bus): a start takes a
// second or two on a quiet machine, longer beside the engine tests.
const SESSIONS_MS = 120_000;

describe.skipIf(!existsSync(webkitDriver))("WebKit sessions and GStreamer's plugin registry", () => {
  // The user's cache folder, for these tests a folder of their own (XDG_CACHE_HOME); GStreamer's logs.
  const cache = mkdtempSync(join(tmpdir(), 'origin-lab-cache-'));
  const logs = mkdtempSync(join(tmpdir(), 'origin-lab-gst-logs-'));
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(cache, { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
  });

  /**
   * A session opened and closed, GStreamer telling what it does with plugins (GST_DEBUG, a file
   * per process: %p); returns the plugins it loaded to list them in its registry. GStreamer loads
   * a plugin for that only when its registry lacks it, or when the plugin or what it declares it
   * depends on has changed since.
   */
  async function pluginsLoadedBy(name: string): Promise<string[]> {
    const env = {
      GST_DEBUG: 'GST_PLUGIN_LOADING:4',
      GST_DEBUG_FILE: join(logs, `${name}-%p.log`),
      GST_DEBUG_NO_COLOR: '1',
    };
    const session = await WebKitSession.start({ env, timeoutMs: 60_000 });
    try {
      await session.browser.url('about:blank');
    } finally {
      await session.close();
    }
    return readdirSync(logs)
      .filter((file) => file.startsWith(`${name}-`))
      .flatMap((file) => [
        ...readFileSync(join(logs, file), 'latin1').matchAll(/load_file_for_registry: plugin "([^"]+)" loaded/g),
      ])
      .map((match) => match[1]!);
  }

  it(
    "the first session lists every plugin in a registry in the user's cache folder; the next reads it and loads almost none",
    async () => {
      vi.stubEnv('XDG_CACHE_HOME', cache);
      vi.stubEnv('GST_REGISTRY', '');
      const first = await pluginsLoadedBy('first');
      expect(existsSync(join(cache, 'origin-lab', 'gstreamer-registry.bin'))).toBe(true);
      expect(first.length).toBeGreaterThan(10);
      const second = await pluginsLoadedBy('second');
      // Only those whose registry entry depends on HOME, new for each session (libvisual's, here).
      expect(second.length, second.join(', ')).toBeLessThan(first.length / 10);
    },
    SESSIONS_MS,
  );
});
