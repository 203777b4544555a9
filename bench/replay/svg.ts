/**
 * A small hand-written SVG bar chart of the replay's duplicate shares: one
 * pair of bars per sequence, dedup off and on.
 */
import type { ReplayRow } from './run.js';

const W = 640;
const ROW = 34;
const LEFT = 130;
const RIGHT = 70;
const TOP = 44;

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The chart as an SVG document. */
export function replaySvg(rows: readonly ReplayRow[]): string {
  const height = TOP + rows.length * ROW + 36;
  const scale = (W - LEFT - RIGHT) / Math.max(0.01, ...rows.map((r) => r.baseline.duplicateShare));
  const bars = rows.flatMap((r, i) => {
    const y = TOP + i * ROW;
    const b = r.baseline.duplicateShare;
    const d = r.dedup.duplicateShare;
    return [
      `<text x="${LEFT - 8}" y="${y + 17}" text-anchor="end">${esc(r.sequence)}</text>`,
      `<rect x="${LEFT}" y="${y + 3}" width="${(b * scale).toFixed(1)}" height="12" fill="#c0504d"/>`,
      `<text x="${(LEFT + b * scale + 5).toFixed(1)}" y="${y + 13}" class="v">${(b * 100).toFixed(1)}%</text>`,
      `<rect x="${LEFT}" y="${y + 16}" width="${Math.max(1, d * scale).toFixed(1)}" height="12" fill="#4f81bd"/>`,
      `<text x="${(LEFT + Math.max(1, d * scale) + 5).toFixed(1)}" y="${y + 26}" class="v">${(d * 100).toFixed(1)}%</text>`,
    ];
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" font-family="system-ui, sans-serif" font-size="12" role="img">`,
    '<title>Duplicate share of source chars per replayed sequence, with and without dedup</title>',
    '<style>.v{fill:#444;font-size:11px}</style>',
    `<rect width="${W}" height="${height}" fill="#fff"/>`,
    `<text x="${LEFT}" y="20" font-size="14" font-weight="600">Duplicate share of source chars, per drill-down sequence</text>`,
    ...bars,
    `<rect x="${LEFT}" y="${height - 24}" width="12" height="10" fill="#c0504d"/>`,
    `<text x="${LEFT + 18}" y="${height - 15}">without dedup</text>`,
    `<rect x="${LEFT + 130}" y="${height - 24}" width="12" height="10" fill="#4f81bd"/>`,
    `<text x="${LEFT + 148}" y="${height - 15}">with dedup (planCall + renderer + recorder + ledger)</text>`,
    '</svg>',
    '',
  ].join('\n');
}
