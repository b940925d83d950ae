import { html } from './html';

/** One bar: its label on the axis, its height, and what a reader (or a screen reader) is told. */
export interface Bar {
  label: string;
  value: number;
  text: string;
}

/**
 * A bar chart as inline SVG, rendered on the server: no script, nothing to load, allowed by the
 * pages' CSP. It is one image to assistive technology (role="img" with a title and a description
 * naming the highest and latest bars); each bar also carries its own title for a pointer's tooltip.
 * The figures themselves are in a table beside it.
 */
export function barChart(c: { id: string; title: string; bars: Bar[]; max?: number }) {
  const width = 640;
  const height = 180;
  const top = 16;
  const bottom = 28;
  const plot = height - top - bottom;
  const max = Math.max(c.max ?? 0, ...c.bars.map((b) => b.value), 1);
  const slot = width / Math.max(c.bars.length, 1);
  const barWidth = Math.max(slot * 0.7, 2);
  const highest = c.bars.reduce<Bar | undefined>((h, b) => (!h || b.value > h.value ? b : h), undefined);
  const latest = c.bars.at(-1);
  const description = [
    highest && highest.value > 0 ? `Highest: ${highest.label}, ${highest.text}.` : 'Nothing yet in this period.',
    latest ? `Latest: ${latest.label}, ${latest.text}.` : '',
  ].join(' ');
  const bars = c.bars.map((b, i) => {
    const h = (b.value / max) * plot;
    const x = i * slot + (slot - barWidth) / 2;
    const showLabel = c.bars.length <= 7 || i % 2 === c.bars.length % 2 || i === c.bars.length - 1;
    return html`<g><title>${`${b.label}: ${b.text}`}</title><rect x="${x.toFixed(1)}" y="${(top + plot - h).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}" fill="#0b4ea2"></rect>${
      showLabel
        ? html`<text x="${(x + barWidth / 2).toFixed(1)}" y="${height - 10}" text-anchor="middle" font-size="11" fill="#111">${b.label}</text>`
        : ''
    }</g>`;
  });
  return html`<figure class="chart">
<svg id="${c.id}" role="img" aria-labelledby="${c.id}-title ${c.id}-desc" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMidYMid meet">
<title id="${c.id}-title">${c.title}</title><desc id="${c.id}-desc">${description}</desc>
<line x1="0" y1="${top + plot}" x2="${width}" y2="${top + plot}" stroke="#555"></line>${bars}
</svg>
<figcaption>${c.title}</figcaption>
</figure>`;
}
