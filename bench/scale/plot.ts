/**
 * The cost curve as an SVG: each measured row's ms against the number of sessions, both axes
 * logarithmic (a flat line is a cost that does not grow; a slope of one, a cost that grows with n).
 */
import type { BenchRow } from '../harness.js';

const W = 760;
const H = 420;
const PAD = { left: 60, right: 250, top: 20, bottom: 40 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function plotSvg(rows: readonly BenchRow[]): string {
  const series = new Map<string, BenchRow[]>();
  for (const r of rows) if (r.ms > 0) series.set(r.name, [...(series.get(r.name) ?? []), r]);
  const ns = rows.map((r) => r.n);
  const ms = rows.filter((r) => r.ms > 0).map((r) => r.ms);
  const [n0, n1] = [Math.log10(Math.min(...ns)), Math.log10(Math.max(...ns))];
  const [m0, m1] = [Math.floor(Math.log10(Math.min(...ms))), Math.ceil(Math.log10(Math.max(...ms)))];
  const x = (n: number): number => PAD.left + ((Math.log10(n) - n0) / Math.max(n1 - n0, 1e-9)) * (W - PAD.left - PAD.right);
  const y = (v: number): number => H - PAD.bottom - ((Math.log10(v) - m0) / Math.max(m1 - m0, 1)) * (H - PAD.top - PAD.bottom);
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`];
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  for (let e = m0; e <= m1; e++) {
    out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#ddd"/>`);
    out.push(`<text x="${PAD.left - 6}" y="${y(10 ** e) + 4}" text-anchor="end">${10 ** e} ms</text>`);
  }
  for (const n of [...new Set(ns)]) out.push(`<text x="${x(n)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${n.toLocaleString('en-US')}</text>`);
  out.push(`<text x="${(W - PAD.right + PAD.left) / 2}" y="${H - 6}" text-anchor="middle">sessions (log)</text>`);
  [...series].forEach(([name, points], i) => {
    const colour = COLOURS[i % COLOURS.length];
    const sorted = [...points].sort((a, b) => a.n - b.n);
    out.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${sorted.map((p) => `${x(p.n).toFixed(1)},${y(p.ms).toFixed(1)}`).join(' ')}"/>`);
    for (const p of sorted) out.push(`<circle cx="${x(p.n).toFixed(1)}" cy="${y(p.ms).toFixed(1)}" r="3" fill="${colour}"/>`);
    out.push(`<text x="${W - PAD.right + 10}" y="${PAD.top + 14 * i + 4}" fill="${colour}">${esc(name.replace(/^pg scale: /, ''))}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
