/**
 * The engine prefers a system ffmpeg / espeak-ng when present. These machines may have neither,
 * so stand-ins on PATH (wrapping the bundled ffmpeg) exercise the selection and the child-process
 * speech path.
 */
import { chmod, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const bundled = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const saved = { ...process.env };
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'video-tools-'));
  await symlink(bundled, join(dir, 'ffmpeg'));
  // A fake espeak-ng: a tone whose length follows the text length, written by the bundled ffmpeg.
  const fake = join(dir, 'espeak-ng');
  await writeFile(
    fake,
    [
      '#!/bin/sh',
      'if [ "$1" = "--version" ]; then echo "eSpeak NG text-to-speech: 9.9-test  Data at: /none"; exit 0; fi',
      'while [ $# -gt 0 ]; do case "$1" in -w) out="$2"; shift;; -f) in="$2"; shift;; -v) voice="$2"; shift;; esac; shift; done',
      'n=$(wc -c < "$in")',
      'd=$(awk "BEGIN { print $n / 15 }")',
      `exec "${bundled}" -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=220:duration=$d" -ac 1 -ar 22050 -c:a pcm_s16le "$out"`,
    ].join('\n'),
  );
  await chmod(fake, 0o755);
});
afterEach(() => {
  process.env = { ...saved };
  vi.resetModules();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tool selection', () => {
  it('uses the bundled ffmpeg when none is on PATH', async () => {
    process.env['PATH'] = '/nonexistent';
    const { resolveFfmpeg } = await import('../../server/video/engine/ffmpeg.ts');
    const ff = await resolveFfmpeg();
    expect(ff.source).toBe('bundled');
    expect(ff.path).toBe(bundled);
  });

  it('prefers a system ffmpeg with libx264 and aac, unless told otherwise', async () => {
    process.env['PATH'] = `${dir}:${saved['PATH'] ?? ''}`;
    const a = await import('../../server/video/engine/ffmpeg.ts');
    expect((await a.resolveFfmpeg()).source).toBe('system');
    vi.resetModules();
    process.env['VIDEO_FFMPEG'] = 'bundled';
    const b = await import('../../server/video/engine/ffmpeg.ts');
    expect((await b.resolveFfmpeg()).source).toBe('bundled');
  });

  it('fails clearly when a forced system ffmpeg is missing', async () => {
    process.env['PATH'] = '/nonexistent';
    process.env['VIDEO_FFMPEG'] = 'system';
    const { resolveFfmpeg } = await import('../../server/video/engine/ffmpeg.ts');
    await expect(resolveFfmpeg()).rejects.toThrow(/no ffmpeg with libx264 and aac/);
  });

  it('prefers a system espeak-ng and runs it as a child process', async () => {
    process.env['PATH'] = `${dir}:${saved['PATH'] ?? ''}`;
    const speech = await import('../../server/video/engine/speech.ts');
    const { readWavInfo } = await import('../../server/video/engine/wav.ts');
    const engine = await speech.resolveSpeechEngine();
    expect(engine).toMatchObject({ kind: 'system', version: '9.9-test' });
    const out = join(dir, 'out.wav');
    await speech.synthesizeToWav('Thirty characters of text here', out, { voice: 'en-gb' });
    expect((await readWavInfo(out)).durationSeconds).toBeCloseTo(2, 1);
  });

  it('falls back to the WebAssembly build without a system espeak-ng', async () => {
    process.env['PATH'] = '/nonexistent';
    const speech = await import('../../server/video/engine/speech.ts');
    expect((await speech.resolveSpeechEngine()).kind).toBe('wasm');
  });
});
