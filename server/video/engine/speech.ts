/**
 * Narration synthesis with eSpeak NG. A system `espeak-ng` on PATH is preferred when present (it
 * runs as a child process); otherwise the WebAssembly build shipped by the npm package `espeak-ng`
 * runs in a worker thread. VIDEO_SPEECH=system|wasm forces a choice, VIDEO_ESPEAK_PATH a binary.
 */
import { execFile, spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { AbortedError } from './ffmpeg.ts';

export const DEFAULT_VOICE = 'en-us';
export const SPEECH_RATE_WPM = 165;

export interface SpeechEngineInfo {
  kind: 'system' | 'wasm';
  path?: string;
  version: string;
}

/** An eSpeak voice name (`en-us`, `en-gb-x-rp`, `en-us+f3`), case-insensitive. */
const VOICE_NAME = '[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,12}){0,4}(?:\\+[A-Za-z0-9]{1,12})?';
/** What a request's `voice` may be, as the OpenAPI document says it: a voice name, blank for the default, spaces around. */
export const VOICE_PATTERN = `^ *(?:${VOICE_NAME})? *$`;
const VOICE_RE = new RegExp(`^${VOICE_NAME}$`);

/** Accepts eSpeak voice names such as `en-us`, `en-gb-x-rp`, `en-us+f3`. */
export function normalizeVoice(voice: string | undefined): string {
  const v = (voice ?? '').trim();
  if (!v) return DEFAULT_VOICE;
  if (!VOICE_RE.test(v)) {
    throw new Error(`invalid voice "${v}": expected an eSpeak voice name such as en-us or en-gb`);
  }
  return v.toLowerCase();
}

function probeSystem(path: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(path, ['--version'], { timeout: 5000 }, (err, stdout) => {
      if (err) return resolve(null);
      resolve(/eSpeak NG text-to-speech:\s*(\S+)/.exec(String(stdout))?.[1] ?? 'unknown');
    });
  });
}

let cachedEngine: Promise<SpeechEngineInfo> | null = null;

export function resolveSpeechEngine(): Promise<SpeechEngineInfo> {
  cachedEngine ??= (async (): Promise<SpeechEngineInfo> => {
    const mode = process.env['VIDEO_SPEECH'] ?? 'auto';
    const path = process.env['VIDEO_ESPEAK_PATH'] || 'espeak-ng';
    if (mode !== 'wasm') {
      const version = await probeSystem(path);
      if (version) return { kind: 'system', path, version };
      if (mode === 'system') throw new Error(`VIDEO_SPEECH=system but ${path} is not runnable`);
    }
    return { kind: 'wasm', version: 'espeak-ng (npm, wasm)' };
  })();
  return cachedEngine;
}

// ---------------------------------------------------------------------------------------------
// WebAssembly engine in a worker thread

interface Pending {
  resolve: (wav: Uint8Array) => void;
  reject: (err: Error) => void;
}

class WasmSpeechWorker {
  private worker: Worker | null = null;
  private seq = 0;
  private pending = new Map<number, Pending>();
  private idleTimer: NodeJS.Timeout | null = null;

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(new URL('./speech-worker.mjs', import.meta.url));
    w.on('message', (msg: { id: number; ok: boolean; wav?: Uint8Array; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.wav ?? new Uint8Array());
      else p.reject(new Error(msg.error ?? 'speech synthesis failed'));
      this.scheduleIdle();
    });
    const fail = (err: Error) => {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      this.worker = null;
    };
    w.on('error', fail);
    w.on('exit', (code) => {
      if (this.worker === w) fail(new Error(`speech worker exited (${code})`));
    });
    w.unref();
    this.worker = w;
    return w;
  }

  private scheduleIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.pending.size) return;
    // Idle: do not keep the process alive for the worker.
    this.worker?.unref();
    // Free the worker (and its compiled wasm, ~40 MB) after a quiet period.
    this.idleTimer = setTimeout(() => void this.terminate(), 30_000);
    this.idleTimer.unref();
  }

  async terminate(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  synthesize(text: string, voice: string, rate: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (signal?.aborted) return Promise.reject(new AbortedError());
    const w = this.ensure();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const id = ++this.seq;
    return new Promise<Uint8Array>((resolve, reject) => {
      const onAbort = () => {
        // The synthesis is synchronous inside the worker: stop it by ending the worker.
        this.pending.delete(id);
        void this.terminate();
        reject(new AbortedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      w.ref(); // a pending request keeps the process alive
      this.pending.set(id, {
        resolve: (wav) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(wav);
        },
        reject: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      });
      w.postMessage({ id, text, voice, rate });
    });
  }
}

const wasmWorker = new WasmSpeechWorker();

/** Ends the speech worker thread, if one is running (tests and shutdown). */
export function shutdownSpeech(): Promise<void> {
  return wasmWorker.terminate();
}

// ---------------------------------------------------------------------------------------------

/** Synthesizes `text` into a WAV file at `outPath`. */
export async function synthesizeToWav(
  text: string,
  outPath: string,
  opts: { voice?: string; rate?: number; signal?: AbortSignal } = {},
): Promise<SpeechEngineInfo> {
  const engine = await resolveSpeechEngine();
  const voice = normalizeVoice(opts.voice);
  const rate = Math.round(opts.rate ?? SPEECH_RATE_WPM);
  if (engine.kind === 'wasm') {
    const wav = await wasmWorker.synthesize(text, voice, rate, opts.signal);
    await writeFile(outPath, wav);
    return engine;
  }
  const txt = `${outPath}.txt`;
  await writeFile(txt, text, 'utf8');
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(engine.path!, ['-v', voice, '-s', String(rate), '-w', outPath, '-f', txt], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => {
        err = (err + d.toString()).slice(-4096);
      });
      const onAbort = () => child.kill('SIGKILL');
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      child.on('error', reject);
      child.on('close', (code) => {
        opts.signal?.removeEventListener('abort', onAbort);
        if (opts.signal?.aborted) reject(new AbortedError());
        else if (code === 0) resolve();
        else reject(new Error(`espeak-ng failed (${code}): ${err.trim()}`));
      });
    });
  } finally {
    await rm(txt, { force: true });
  }
  return engine;
}
