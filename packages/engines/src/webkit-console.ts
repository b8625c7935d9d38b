import { miniBrowser } from './browsers.js';
import { DisplayGroup } from './display-group.js';

/** One line of WebKit's console, as its Web Inspector shows it. */
export interface WebKitConsoleLine {
  /** JS, NETWORK, SECURITY, ... ('' for the page's own console.log). */
  source: string;
  level: 'LOG' | 'INFO' | 'WARN' | 'ERROR' | 'DEBUG';
  text: string;
}

/**
 * WebKit writes each console message as `[url:line:column: ]CONSOLE [SOURCE ]LEVEL text` once
 * asked to (`enable-write-console-messages-to-stdout`, which in 2.50 writes to stderr).
 */
const CONSOLE_LINE = /^(?:\S+:\d+:\d+: )?CONSOLE (?:([A-Z][A-Z-]*) )?(LOG|INFO|WARN|ERROR|DEBUG) (.*)$/;

export function readWebKitConsoleLine(line: string): WebKitConsoleLine | null {
  const match = CONSOLE_LINE.exec(line);
  if (!match) return null;
  return { source: match[1] ?? '', level: match[2] as WebKitConsoleLine['level'], text: match[3]! };
}

/**
 * What WebKit prints to its console while a page runs, up to the line that matches until, or
 * until timeoutMs have passed (then it fails, naming what it saw). Classic WebDriver tells a
 * client nothing of the console, and a MiniBrowser under automation does not take the settings
 * of its command line (measured, WebKitGTK 2.50): so the page is opened in a MiniBrowser of its
 * own, driven by nothing, which is why the page must do its work by itself on opening (the
 * playground's `#…&send`). The display group is stopped before this returns, however it ends.
 */
export async function webkitConsole(
  url: string,
  { until, timeoutMs }: { until: RegExp; timeoutMs: number },
): Promise<WebKitConsoleLine[]> {
  const lines: WebKitConsoleLine[] = [];
  let seen: (() => void) | undefined;
  let shown = false;
  // Every line is kept from the start.
  const group = DisplayGroup.start(miniBrowser, ['--enable-write-console-messages-to-stdout=TRUE', url]);
  group.onLine((raw) => {
    const line = readWebKitConsoleLine(raw);
    if (!line) return;
    lines.push(line);
    if (until.test(line.text)) {
      shown = true;
      seen?.();
    }
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const finish = (err?: Error) => {
        clearTimeout(timer);
        clearInterval(exitCheck);
        if (err) reject(err);
        else resolve();
      };
      const timer = setTimeout(
        () =>
          finish(
            new Error(
              `WebKit's console showed nothing matching ${until} within ${timeoutMs} ms of opening ${url}; it printed:\n${group.lastOutput()}`,
            ),
          ),
        timeoutMs,
      );
      const exitCheck = setInterval(() => {
        if (group.exited())
          finish(new Error(`MiniBrowser exited before ${until} showed in its console:\n${group.lastOutput()}`));
      }, 200);
      seen = () => finish();
      if (shown) finish();
    });
  } finally {
    await group.stop();
  }
  return lines;
}
