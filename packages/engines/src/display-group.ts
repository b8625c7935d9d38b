import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** Every wait here is bounded: this is the bound. */
const STOP_MS = 5_000;

/**
 * Starts Xvfb on the first free display (Xvfb picks it itself and says which on a pipe, so groups
 * started at once never race for one), lets the group's key in, then runs the rest of its
 * arguments under a session bus on that display and stays beside them in their process group:
 * when the process that started it is gone (however it ended, SIGKILL included) or the command
 * exits, it kills the whole group. dbus-run-session and the accessibility bus daemons outlive a
 * killed browser otherwise (PLATFORM.md). xvfb-run is not used: it picks a display by its lock
 * file, so groups started at once raced for one (they had to start one at a time), and it waits
 * for Xvfb's ready signal with a plain `wait`, which would hang for good if the signal came first
 * (read in its source, not seen happen).
 *
 * Xvfb is tried three times, as xvfb-run does; what it said goes to the group's HOME, and to its
 * output only when it did not start. The key comes in the environment, never on a command line
 * another user could read. Xvfb reads every key of its file whatever display it names; a client
 * looks its display's up.
 */
const WATCHDOG = `parent=$1 auth=$2; shift 2
key=$ORIGIN_LAB_X_KEY; unset ORIGIN_LAB_X_KEY
printf 'add :0 . %s\\n' "$key" | xauth -q -f "$auth" source -
tries=3
while :; do
  display=$(Xvfb -displayfd 3 -auth "$auth" -nolisten tcp -screen 0 1280x900x24 3>&1 >/dev/null 2>"$HOME/Xvfb.log" &)
  [ -n "$display" ] && break
  tries=$((tries - 1))
  if [ "$tries" -eq 0 ]; then
    echo "Xvfb did not start (is it installed? the package is xvfb)" >&2
    tail -n 20 "$HOME/Xvfb.log" >&2
    kill -KILL 0
  fi
done
printf 'add :%s . %s\\n' "$display" "$key" | xauth -q -f "$auth" source -
echo "$display" > "$HOME/display"
DISPLAY=":$display" XAUTHORITY="$auth" dbus-run-session "$@" &
while kill -0 "$parent" 2>/dev/null && kill -0 $! 2>/dev/null; do sleep 1; done
kill -KILL 0`;

/**
 * WebKitGTK paints a page with Skia on the GPU when it finds OpenGL; on a machine without a GPU
 * (Xvfb, CI) that OpenGL is Mesa's llvmpipe, which emulates the GPU on the CPU: it took about 40 %
 * of WebKit's web processes' CPU in a sampled `npm test`. Skia's own CPU painting does the same
 * work for less (four WebKit e2e specs: 105-114 s of CPU against 116-126 s, in turns). Where a page
 * is painted changes nothing a page's requests do. Unless the user's environment says otherwise.
 */
const PAINTING = { WEBKIT_SKIA_ENABLE_CPU_RENDERING: process.env.WEBKIT_SKIA_ENABLE_CPU_RENDERING ?? '1' };

/**
 * GStreamer's plugin registry. WebKitGTK loads GStreamer at every start, and GStreamer keeps its
 * registry under HOME: in each group's new HOME it found none and scanned every plugin again (a
 * helper process; about a quarter of a second of CPU and a fifth of wall time at each WebKit
 * session's start, measured). Kept instead in the user's own cache folder, where every group finds
 * it: it names the plugins' files and what each provides, nothing of a page, a session or a site.
 * Never in a shared temporary folder, since GStreamer loads the files it names. Unless the user's
 * environment names one (GST_REGISTRY); read at each start, as the environment may change.
 */
function pluginRegistry(env: NodeJS.ProcessEnv): { GST_REGISTRY: string } {
  const cache = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return { GST_REGISTRY: env.GST_REGISTRY || join(cache, 'origin-lab', 'gstreamer-registry.bin') };
}

/**
 * A WebKitGTK program (the driver, or MiniBrowser itself) on an Xvfb display with a session bus
 * of its own, all in one process group: stop() ends the group, and so does this process's exit
 * (the watchdog, if it is killed). WebKitGTK has no headless mode.
 */
export class DisplayGroup {
  /** The groups still running in this process: one exit listener kills them all (a classroom runs many at once). */
  private static readonly running = new Set<DisplayGroup>();
  static {
    process.on('exit', () => DisplayGroup.running.forEach((group) => group.kill('SIGKILL')));
  }

  private output = '';
  private partial = '';
  private readonly lineListeners = new Set<(line: string) => void>();

  private constructor(
    private readonly child: ChildProcess,
    /** The group's HOME, removed when it stops: the session's own files go here too. */
    readonly home: string,
  ) {
    DisplayGroup.running.add(this);
    child.stderr?.on('data', (chunk: Buffer) => this.received(chunk.toString('utf8')));
  }

  /**
   * Starts command with args on a display of its own; env is added to the group's environment
   * (the browser inherits it). What the group writes to stderr (WebKit's console, when asked to
   * write it) reaches onLine, a line at a time.
   */
  static start(command: string, args: readonly string[], env: Record<string, string> = {}): DisplayGroup {
    const home = mkdtempSync(join(tmpdir(), 'origin-lab-webkit-'));
    // The display's key lives in the group's HOME and goes with it.
    const auth = join(home, 'Xauthority');
    writeFileSync(auth, '', { mode: 0o600 });
    const key = randomBytes(16).toString('hex');
    const child = spawn('sh', ['-c', WATCHDOG, 'watchdog', String(process.pid), auth, command, ...args], {
      // detached: setsid, a process group of its own, stopped as one.
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...PAINTING, ...pluginRegistry(process.env), ...env, HOME: home, ORIGIN_LAB_X_KEY: key },
    });
    return new DisplayGroup(child, home);
  }

  /** Each whole line the group writes to stderr from now on; returns the way to stop listening. */
  onLine(listener: (line: string) => void): () => void {
    this.lineListeners.add(listener);
    return () => this.lineListeners.delete(listener);
  }

  private received(text: string): void {
    this.output = (this.output + text).slice(-4000);
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) for (const listener of this.lineListeners) listener(line);
  }

  /** Whether the command has exited (the group may still be stopping). */
  exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /**
   * How far the group got, for an error about a command that never answered: whether Xvfb gave a
   * display (the watchdog writes it to the group's HOME before the command starts) and whether
   * the command is still running.
   */
  progress(): string {
    let display: string;
    try {
      display = `Xvfb on display :${readFileSync(join(this.home, 'display'), 'utf8').trim()}, then the command started`;
    } catch {
      display = 'Xvfb had given no display yet';
    }
    return `${display}; ${this.exited() ? 'it has exited' : 'it is still running'}`;
  }

  /** The last 4000 characters the group wrote to stderr: what an error report shows. */
  lastOutput(): string {
    return this.output;
  }

  /** SIGTERM to the group (Xvfb removes its lock file), then SIGKILL to what is left after a bounded wait; then its HOME goes. */
  async stop(): Promise<void> {
    this.kill('SIGTERM');
    const deadline = Date.now() + STOP_MS;
    while (Date.now() < deadline && this.groupAlive()) await new Promise((resolve) => setTimeout(resolve, 100));
    this.kill('SIGKILL');
    DisplayGroup.running.delete(this);
    this.lineListeners.clear();
    rmSync(this.home, { recursive: true, force: true });
  }

  private kill(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // The group is gone.
    }
  }

  /**
   * Whether a process of the group still runs. A zombie has ended and waits only to be reaped, by
   * init once its parent is gone, which some inits do a second or two later (measured here: the
   * whole group dead at once, reaped 1.3 s later): it does not count. Without /proc (not Linux),
   * any member counts.
   */
  private groupAlive(): boolean {
    const group = this.child.pid!;
    try {
      process.kill(-group, 0);
    } catch {
      return false;
    }
    return (runningInGroup(group) ?? [group]).length > 0;
  }
}

/**
 * The processes of a process group that still run, read from /proc (a zombie has ended: it only
 * waits to be reaped); null without /proc (not Linux).
 */
export function runningInGroup(group: number): number[] | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  return pids.flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (name) state ppid pgrp ...": the name may hold spaces and parentheses.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === group && state !== 'Z' ? [Number(pid)] : [];
    } catch {
      return [];
    }
  });
}
