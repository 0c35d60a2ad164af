/** Minimal RIFF/WAVE reader: enough to measure narration length and trim nothing. */
import { open } from 'node:fs/promises';

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  dataBytes: number;
  durationSeconds: number;
}

/** Reads the header of a PCM WAV file and returns its duration (tolerates streaming headers). */
export async function readWavInfo(path: string): Promise<WavInfo> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(size, 4096));
    await fh.read(head, 0, head.length, 0);
    if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') {
      throw new Error(`${path} is not a WAV file`);
    }
    let off = 12;
    let fmt: { channels: number; sampleRate: number; byteRate: number; bits: number } | null = null;
    while (off + 8 <= head.length) {
      const id = head.toString('ascii', off, off + 4);
      const len = head.readUInt32LE(off + 4);
      if (id === 'fmt ') {
        fmt = {
          channels: head.readUInt16LE(off + 10),
          sampleRate: head.readUInt32LE(off + 12),
          byteRate: head.readUInt32LE(off + 16),
          bits: head.readUInt16LE(off + 22),
        };
      } else if (id === 'data') {
        if (!fmt || !fmt.byteRate) throw new Error(`${path}: WAV data before a valid fmt chunk`);
        const available = size - (off + 8);
        const dataBytes = len === 0 || len > available ? available : len;
        return {
          sampleRate: fmt.sampleRate,
          channels: fmt.channels,
          bitsPerSample: fmt.bits,
          dataBytes,
          durationSeconds: dataBytes / fmt.byteRate,
        };
      }
      off += 8 + len + (len % 2);
    }
    throw new Error(`${path}: no WAV data chunk`);
  } finally {
    await fh.close();
  }
}
