/**
 * Locating and running ffmpeg. The bundled binary comes from @ffmpeg-installer/ffmpeg (its
 * per-platform optional package ships a static ffmpeg 4.1 with libx264 and the native AAC
 * encoder inside the npm tarball). A system `ffmpeg` on PATH is preferred when it has both
 * encoders; VIDEO_FFMPEG_PATH forces a binary, VIDEO_FFMPEG=bundled|system forces a choice.
 */
import { execFile, spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface FfmpegInfo {
  path: string;
  source: 'system' | 'bundled' | 'env';
  version: string;
}

function run(cmd: string, args: string[], timeoutMs = 15_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

async function inspect(path: string): Promise<{ ok: boolean; version: string }> {
  const v = await run(path, ['-hide_banner', '-version']);
  if (v.code !== 0) return { ok: false, version: '' };
  const version = /ffmpeg version (\S+)/.exec(v.stdout)?.[1] ?? 'unknown';
  const enc = await run(path, ['-hide_banner', '-encoders']);
  const ok = enc.code === 0 && /\blibx264\b/.test(enc.stdout) && /^\s*A\S*\s+aac\s/m.test(enc.stdout);
  return { ok, version };
}

function bundledPath(): string | null {
  try {
    const p = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    try {
      accessSync(p, constants.X_OK);
    } catch {
      // Package managers that skip install scripts leave the binary without its exec bit.
      try {
        chmodSync(p, 0o755);
      } catch {
        /* reported by inspect() below */
      }
    }
    return p;
  } catch {
    return null;
  }
}

let cached: Promise<FfmpegInfo> | null = null;

/** Finds an ffmpeg with libx264 and AAC (system first when it qualifies, then the bundled one). */
export function resolveFfmpeg(): Promise<FfmpegInfo> {
  cached ??= (async (): Promise<FfmpegInfo> => {
    const forced = process.env['VIDEO_FFMPEG_PATH'];
    if (forced) {
      const r = await inspect(forced);
      if (!r.ok) throw new Error(`VIDEO_FFMPEG_PATH=${forced} is not an ffmpeg with libx264 and aac`);
      return { path: forced, source: 'env', version: r.version };
    }
    const mode = process.env['VIDEO_FFMPEG'] ?? 'auto';
    if (mode !== 'bundled') {
      const r = await inspect('ffmpeg');
      if (r.ok) return { path: 'ffmpeg', source: 'system', version: r.version };
      if (mode === 'system') throw new Error('VIDEO_FFMPEG=system but no ffmpeg with libx264 and aac is on PATH');
    }
    const b = bundledPath();
    if (b) {
      const r = await inspect(b);
      if (r.ok) return { path: b, source: 'bundled', version: r.version };
    }
    throw new Error('no usable ffmpeg: install @ffmpeg-installer/ffmpeg or put an ffmpeg with libx264 and aac on PATH');
  })();
  cached.catch(() => {
    cached = null;
  });
  return cached;
}

// ---------------------------------------------------------------------------------------------
// Child memory tracking (used by the benchmark)

let trackChildMemory = false;
let peakChildRss = 0;

export function setChildMemoryTracking(on: boolean): void {
  trackChildMemory = on;
  if (on) peakChildRss = 0;
}

/** Peak resident set size of any ffmpeg child seen while tracking was on, in bytes. */
export function peakChildRssBytes(): number {
  return peakChildRss;
}

function sampleRss(pid: number): void {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmHWM:\s+(\d+) kB/.exec(status) ?? /VmRSS:\s+(\d+) kB/.exec(status);
    if (m) peakChildRss = Math.max(peakChildRss, Number(m[1]) * 1024);
  } catch {
    /* process already gone */
  }
}

// ---------------------------------------------------------------------------------------------

export class AbortedError extends Error {
  constructor(message = 'the render was aborted') {
    super(message);
    this.name = 'AbortError';
  }
}

export interface RunFfmpegOptions {
  signal?: AbortSignal;
  /** Called with the encoded output time in seconds (requires `-progress pipe:1` in args). */
  onTime?: (seconds: number) => void;
}

/** Runs ffmpeg as a child process; rejects with the tail of stderr on a non-zero exit. */
export async function runFfmpeg(args: string[], opts: RunFfmpegOptions = {}): Promise<string> {
  const ff = await resolveFfmpeg();
  if (opts.signal?.aborted) throw new AbortedError();
  return new Promise<string>((resolve, reject) => {
    const child = spawn(ff.path, ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let outBuf = '';
    let timer: NodeJS.Timeout | undefined;
    if (trackChildMemory && child.pid) {
      const pid = child.pid;
      sampleRss(pid);
      timer = setInterval(() => sampleRss(pid), 25);
    }
    const onAbort = () => child.kill('SIGKILL');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      stderr = (stderr + d).slice(-16_384);
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      outBuf += d;
      let nl: number;
      while ((nl = outBuf.indexOf('\n')) >= 0) {
        const line = outBuf.slice(0, nl).trim();
        outBuf = outBuf.slice(nl + 1);
        const m = /^out_time_(?:us|ms)=(\d+)$/.exec(line);
        if (m && opts.onTime) opts.onTime(Number(m[1]) / 1e6);
      }
    });
    child.on('error', (err) => {
      if (timer) clearInterval(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', (code, sig) => {
      if (timer) clearInterval(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (opts.signal?.aborted) return reject(new AbortedError());
      if (code === 0) return resolve(stderr);
      reject(new Error(`ffmpeg failed (${code ?? sig}): ${stderr.trim().split('\n').slice(-6).join(' | ')}`));
    });
  });
}

export interface MediaInfo {
  durationSeconds: number;
  videoCodec?: string;
  audioCodec?: string;
  width?: number;
  height?: number;
  /** Raw `ffmpeg -i` stderr, for diagnostics. */
  raw: string;
}

/** Reads container duration and stream codecs with `ffmpeg -i` (no ffprobe is bundled). */
export async function probeMedia(path: string): Promise<MediaInfo> {
  const ff = await resolveFfmpeg();
  const r = await run(ff.path, ['-hide_banner', '-i', path]);
  // `ffmpeg -i` without an output exits 1 by design; only a missing Duration line is an error.
  const raw = r.stderr;
  const d = /Duration:\s*(\d+):(\d+):(\d+(?:\.\d+)?)/.exec(raw);
  if (!d) throw new Error(`cannot read media duration of ${path}: ${raw.trim().split('\n').slice(-2).join(' | ')}`);
  const durationSeconds = Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]);
  const v = /Stream #\S+.*?: Video: (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})/.exec(raw);
  const a = /Stream #\S+.*?: Audio: (\w+)/.exec(raw);
  return {
    durationSeconds,
    raw,
    ...(v ? { videoCodec: v[1], width: Number(v[2]), height: Number(v[3]) } : {}),
    ...(a ? { audioCodec: a[1] } : {}),
  };
}

/** Duration in seconds of a media file, read back with the ffmpeg the engine uses. */
export async function probeDurationSeconds(path: string): Promise<number> {
  return (await probeMedia(path)).durationSeconds;
}
