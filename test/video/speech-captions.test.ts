import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCues, chunkText, formatTimestamp, toWebVtt } from '../../server/video/engine/captions.ts';
import { normalizeVoice, shutdownSpeech, synthesizeToWav } from '../../server/video/engine/speech.ts';
import { readWavInfo } from '../../server/video/engine/wav.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'video-speech-'));
});
afterAll(async () => {
  await shutdownSpeech();
  await rm(dir, { recursive: true, force: true });
});

describe('speech synthesis', () => {
  it('produces audible speech whose length follows the text', async () => {
    const short = join(dir, 'short.wav');
    const long = join(dir, 'long.wav');
    await synthesizeToWav('Hello there.', short);
    await synthesizeToWav('Hello there. Photosynthesis converts light energy into chemical energy that plants store as sugar.', long);
    const a = await readWavInfo(short);
    const b = await readWavInfo(long);
    expect(a.bitsPerSample).toBe(16);
    expect(a.durationSeconds).toBeGreaterThan(0.4);
    expect(b.durationSeconds).toBeGreaterThan(a.durationSeconds * 3);
    // Real speech, not silence: a clearly non-zero RMS level and many zero crossings.
    const bytes = await readFile(long);
    const samples = new Int16Array(bytes.buffer, bytes.byteOffset + 44, Math.floor((bytes.length - 44) / 2));
    let sum = 0;
    let crossings = 0;
    for (let i = 0; i < samples.length; i++) {
      sum += samples[i]! * samples[i]!;
      if (i && (samples[i]! >= 0) !== (samples[i - 1]! >= 0)) crossings++;
    }
    const rms = Math.sqrt(sum / samples.length);
    expect(rms).toBeGreaterThan(500);
    expect(crossings / b.durationSeconds).toBeGreaterThan(200);
  }, 60_000);

  it('validates voice names', () => {
    expect(normalizeVoice(undefined)).toBe('en-us');
    expect(normalizeVoice('en-GB')).toBe('en-gb');
    expect(normalizeVoice('en-us+f3')).toBe('en-us+f3');
    expect(() => normalizeVoice('en; rm -rf /')).toThrow(/invalid voice/);
  });
});

describe('captions', () => {
  it('chunks long sentences at commas or spaces', () => {
    const s = 'The quick brown fox, which was very quick indeed, jumped over the lazy dog that was sleeping in the warm afternoon sun near the river bank.';
    const chunks = chunkText(s, 84);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.length <= 84)).toBe(true);
    expect(chunks.join(' ')).toBe(s);
  });

  it('times cues proportionally inside each narration span and escapes text', () => {
    const cues = buildCues([
      { text: 'Short. A much longer second sentence here.', start: 0, duration: 4 },
      { text: 'Use a < b & c.', start: 5, duration: 1 },
    ]);
    expect(cues).toHaveLength(3);
    expect(cues[0]!.start).toBe(0);
    expect(cues[1]!.end).toBeCloseTo(4, 3);
    expect(cues[1]!.end - cues[1]!.start).toBeGreaterThan(cues[0]!.end - cues[0]!.start);
    expect(cues[2]!.start).toBe(5);
    const vtt = toWebVtt(cues);
    expect(vtt.startsWith('WEBVTT\n\n1\n00:00:00.000 --> ')).toBe(true);
    expect(vtt).toContain('Use a &lt; b &amp; c.');
    expect(formatTimestamp(3725.5)).toBe('01:02:05.500');
  });
});
