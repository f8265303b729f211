// A tiny SVG writer for the ratio-to-floor chart: one group of horizontal bars per scenario, one
// bar per implementation, log2 axis (1x = the floor). No dependencies.

const COLORS = ['#6b7280', '#0ea5e9', '#10b981', '#f59e0b', '#8b5cf6', '#ec4899', '#ef4444'];
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * @param {{ title: string, subtitle?: string, groups: Array<{ name: string, bars: Array<{ label: string, ratio: number | null, note?: string }> }>, series: string[] }} chart
 */
export function ratioChart({ title, subtitle = '', groups, series }) {
  const left = 330;
  const width = 1000;
  const plot = width - left - 90;
  const barH = 14;
  const gap = 3;
  const groupGap = 18;
  const top = 70;
  const ratios = groups.flatMap((g) => g.bars.map((b) => b.ratio)).filter((r) => typeof r === 'number' && r > 0);
  // log2 axis from (at most) 0.5x to the next power of two above the largest ratio; bars grow
  // from the 1x line (the floor), left when faster than the floor, right when slower.
  const minLog = Math.min(-1, Math.floor(Math.log2(Math.min(1, ...ratios))));
  const maxLog = Math.max(1, Math.ceil(Math.log2(Math.max(2, ...ratios))));
  const x = (ratio) => left + ((Math.log2(ratio) - minLog) / (maxLog - minLog)) * plot;
  const one = x(1);
  let y = top;
  const body = [];
  for (const group of groups) {
    body.push(`<text x="${left - 8}" y="${y + barH - 2}" text-anchor="end" font-weight="bold">${esc(group.name)}</text>`);
    y += barH + gap;
    for (const bar of group.bars) {
      const color = COLORS[series.indexOf(bar.label) % COLORS.length];
      body.push(`<text x="${left - 8}" y="${y + barH - 3}" text-anchor="end" fill="#374151">${esc(bar.label)}</text>`);
      if (typeof bar.ratio === 'number') {
        const end = x(bar.ratio);
        const x0 = Math.min(one, end);
        const w = Math.max(2, Math.abs(end - one));
        body.push(`<rect x="${x0.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${color}"><title>${esc(bar.label)}: ${bar.ratio.toFixed(2)}x floor</title></rect>`);
        body.push(`<text x="${(Math.max(one, end) + 4).toFixed(1)}" y="${y + barH - 3}" fill="#111827">${bar.ratio.toFixed(2)}x</text>`);
      } else {
        body.push(`<text x="${one + 4}" y="${y + barH - 3}" fill="#9ca3af" font-style="italic">${esc(bar.note ?? 'n/a')}</text>`);
      }
      y += barH + gap;
    }
    y += groupGap;
  }
  const axis = [];
  for (let k = minLog; k <= maxLog; k++) {
    const ax = x(2 ** k);
    axis.push(`<line x1="${ax.toFixed(1)}" y1="${top - 8}" x2="${ax.toFixed(1)}" y2="${y - groupGap}" stroke="${k === 0 ? '#374151' : '#e5e7eb'}"/>`);
    axis.push(`<text x="${ax.toFixed(1)}" y="${top - 12}" text-anchor="middle" fill="#6b7280">${2 ** k}x</text>`);
  }
  const height = y + 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="16" y="24" font-size="16" font-weight="bold">${esc(title)}</text>`,
    `<text x="16" y="42" fill="#6b7280">${esc(subtitle)}</text>`,
    ...axis,
    ...body,
    `</svg>`,
    '',
  ].join('\n');
}
