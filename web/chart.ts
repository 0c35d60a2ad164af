/**
 * Spend per UTC day as stacked bars, one colour per endpoint, drawn as inline SVG (no chart
 * library, nothing fetched). Each bar segment has a <title> with the day, endpoint and amount.
 */
import type { UsageReport } from './api.ts';
import { h, svg } from './dom.ts';

const PALETTE = ['#2563eb', '#db2777', '#16a34a', '#ea580c', '#7c3aed', '#0891b2', '#ca8a04', '#dc2626', '#4b5563', '#0d9488'];

/** Dollars to the micro-dollar the service counts in, at least to the cent: $4.99976, $5.00, $0.00024. */
export function dollars(usd: number): string {
  const [whole, frac = ''] = Math.abs(usd).toFixed(6).split('.');
  const cents = frac.replace(/0+$/, '').padEnd(2, '0');
  return `${usd < 0 ? '-' : ''}$${whole}.${cents}`;
}

export function spendChart(spend: UsageReport['spend']): HTMLElement {
  const endpoints = new Map<string, number>();
  for (const d of spend.days) for (const e of d.endpoints) endpoints.set(e.endpoint, (endpoints.get(e.endpoint) ?? 0) + e.micros);
  const order = [...endpoints.entries()].sort((a, b) => b[1] - a[1]).map(([e]) => e);
  const colour = new Map(order.map((e, i) => [e, PALETTE[i % PALETTE.length]!]));
  const width = 640;
  const height = 200;
  const pad = { left: 84, right: 8, top: 10, bottom: 28 };
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const maxMicros = Math.max(1, ...spend.days.map((d) => d.micros));
  const slot = innerW / Math.max(1, spend.days.length);
  const barW = Math.max(2, slot * 0.7);
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Spend per day, ${spend.from} to ${spend.to}`, class: 'chart', id: 'spend-chart' });
  // Axis: zero and, when anything was spent, the largest day.
  const ticks: [number, number][] = [[0, pad.top + innerH]];
  if (spend.total_micros > 0) ticks.push([maxMicros, pad.top]);
  for (const [value, y] of ticks) {
    chart.append(
      svg('line', { x1: pad.left, x2: width - pad.right, y1: y, y2: y, class: 'grid' }),
      svg('text', { x: pad.left - 6, y: y + 4, 'text-anchor': 'end', class: 'axis' }, dollars(value / 1e6)),
    );
  }
  spend.days.forEach((day, i) => {
    const x = pad.left + i * slot + (slot - barW) / 2;
    let y = pad.top + innerH;
    // Cheapest on top: the endpoints arrive most expensive first.
    for (const e of day.endpoints) {
      const hgt = (e.micros / maxMicros) * innerH;
      y -= hgt;
      chart.append(
        svg(
          'rect',
          { x, y, width: barW, height: Math.max(hgt, e.micros > 0 ? 1 : 0), fill: colour.get(e.endpoint)!, class: 'bar', 'data-date': day.date, 'data-endpoint': e.endpoint },
          svg('title', {}, `${day.date} · ${e.endpoint}: ${dollars(e.usd)} (${e.charges} charges)`),
        ),
      );
    }
    // Every label when they fit, else every few days.
    const every = Math.ceil(spend.days.length / 10);
    if (i % every === 0 || i === spend.days.length - 1) {
      chart.append(svg('text', { x: x + barW / 2, y: height - 10, 'text-anchor': 'middle', class: 'axis' }, day.date.slice(5)));
    }
  });
  const legend = h(
    'ul',
    { class: 'legend' },
    order.length === 0 ? h('li', {}, 'Nothing spent in these days.') : null,
    ...order.map((e) => h('li', {}, h('span', { class: 'swatch', style: { background: colour.get(e)! } }), `${e}: ${dollars(endpoints.get(e)! / 1e6)}`)),
  );
  return h('figure', { class: 'spend' }, chart, legend, h('figcaption', {}, `Total ${dollars(spend.total_usd)} from ${spend.from} to ${spend.to} (UTC days).`));
}
