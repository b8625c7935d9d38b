import type { LaunchOptions } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Debian's Chromium, launched as PLATFORM.md measured: no sandbox (root), no background
 * networking (the machine has no internet), a throwaway HOME.
 * Never use ignoreHTTPSErrors with Chromium: it drops sendBeacon at page close.
 */
export function chromiumLaunch(): LaunchOptions {
  const home = mkdtempSync(join(tmpdir(), 'e2e-chromium-'));
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    env: { ...process.env, HOME: home } as Record<string, string>,
  };
}
