/**
 * Slide drawing: 1280x720 PNG with @napi-rs/canvas (Skia, prebuilt per platform inside npm).
 * Fonts come from the npm package dejavu-fonts-ttf so that text renders on machines without
 * system fonts. Layout: heading band, bulleted points with word wrapping and font-size fitting,
 * footer with the deck title and the slide number.
 */
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';

export const SLIDE_WIDTH = 1280;
export const SLIDE_HEIGHT = 720;

const FAMILY = 'VideoSlideSans';
let fontsReady = false;
let fontFamily = 'sans-serif';

function ensureFonts(): string {
  if (fontsReady) return fontFamily;
  fontsReady = true;
  try {
    const require = createRequire(import.meta.url);
    const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    const regular = join(dir, 'DejaVuSans.ttf');
    const bold = join(dir, 'DejaVuSans-Bold.ttf');
    if (existsSync(regular)) {
      GlobalFonts.registerFromPath(regular, FAMILY);
      if (existsSync(bold)) GlobalFonts.registerFromPath(bold, FAMILY);
      fontFamily = `${FAMILY}, DejaVu Sans, sans-serif`;
    }
  } catch {
    // Fall back to whatever fonts the system has.
  }
  return fontFamily;
}

export interface SlideContent {
  heading: string;
  points: string[];
  deckTitle: string;
  index: number; // 1-based
  total: number;
}

function wrap(ctx: SKRSContext2D, text: string, maxWidth: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (ctx.measureText(candidate).width <= maxWidth || !line) {
      line = candidate;
      // A single word wider than the line is cut by characters.
      while (ctx.measureText(line).width > maxWidth && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && ctx.measureText(line.slice(0, cut)).width > maxWidth) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    } else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function ellipsize(ctx: SKRSContext2D, lines: string[], maxLines: number, maxWidth: number): string[] {
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = `${kept[maxLines - 1]}…`;
  while (ctx.measureText(last).width > maxWidth && last.length > 2) last = `${last.slice(0, -2)}…`;
  kept[maxLines - 1] = last;
  return kept;
}

/** Draws one slide and returns PNG bytes (encoding runs off the main thread). */
export async function renderSlidePng(slide: SlideContent): Promise<Buffer> {
  const family = ensureFonts();
  const W = SLIDE_WIDTH;
  const H = SLIDE_HEIGHT;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');

  // Background and heading band.
  ctx.fillStyle = '#f7f8fb';
  ctx.fillRect(0, 0, W, H);
  const bandH = 168;
  ctx.fillStyle = '#1f3a5f';
  ctx.fillRect(0, 0, W, bandH);
  ctx.fillStyle = '#f2a900';
  ctx.fillRect(0, bandH, W, 6);

  const marginX = 72;
  const textW = W - marginX * 2;

  // Heading: up to two lines, shrinking from 54px to 34px until it fits.
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#ffffff';
  let hSize = 54;
  let hLines: string[] = [];
  for (; hSize >= 34; hSize -= 4) {
    ctx.font = `bold ${hSize}px ${family}`;
    hLines = wrap(ctx, slide.heading, textW);
    if (hLines.length <= 2) break;
  }
  ctx.font = `bold ${Math.max(hSize, 34)}px ${family}`;
  hLines = ellipsize(ctx, hLines, 2, textW);
  const hLineH = Math.round(Math.max(hSize, 34) * 1.18);
  let hy = bandH / 2 - ((hLines.length - 1) * hLineH) / 2 + Math.max(hSize, 34) * 0.36;
  for (const l of hLines) {
    ctx.fillText(l, marginX, hy);
    hy += hLineH;
  }

  // Points: fit all bullets in the body area by shrinking the font (34px down to 20px).
  const bodyTop = bandH + 56;
  const bodyBottom = H - 84;
  const bulletIndent = 40;
  const pointW = textW - bulletIndent;
  let size = 34;
  let layout: string[][] = [];
  const gapFactor = 0.55;
  for (; size >= 20; size -= 2) {
    ctx.font = `${size}px ${family}`;
    layout = slide.points.map((p) => wrap(ctx, p, pointW));
    const lineH = size * 1.3;
    const height = layout.reduce((n, ls) => n + ls.length * lineH, 0) + Math.max(0, layout.length - 1) * size * gapFactor;
    if (height <= bodyBottom - bodyTop) break;
  }
  size = Math.max(size, 20);
  ctx.font = `${size}px ${family}`;
  const lineH = size * 1.3;
  let y = bodyTop + size;
  for (const lines of layout) {
    if (y > bodyBottom) break;
    ctx.fillStyle = '#f2a900';
    ctx.beginPath();
    ctx.arc(marginX + 10, y - size * 0.35, Math.max(5, size * 0.18), 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#1b1f24';
    for (const l of lines) {
      if (y > bodyBottom) break;
      ctx.fillText(l, marginX + bulletIndent, y);
      y += lineH;
    }
    y += size * gapFactor;
  }

  // Footer.
  ctx.fillStyle = '#d5dae3';
  ctx.fillRect(marginX, H - 58, textW, 2);
  ctx.font = `20px ${family}`;
  ctx.fillStyle = '#5b6472';
  const footer = ellipsize(ctx, wrap(ctx, slide.deckTitle, textW - 140), 1, textW - 140)[0] ?? '';
  ctx.fillText(footer, marginX, H - 26);
  const num = `${slide.index} / ${slide.total}`;
  ctx.fillText(num, W - marginX - ctx.measureText(num).width, H - 26);

  return canvas.encode('png');
}
