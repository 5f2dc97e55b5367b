/**
 * Small statistics and table helpers. Medians, not means: a benchmark on a shared machine has
 * long-tailed noise, and the median is what a user feels on most calls.
 */

/**
 * Median, min and max of a list of samples (milliseconds or any unit).
 * @param {readonly number[]} samples
 * @returns {{ median: number, min: number, max: number, n: number }}
 */
export function summarize(samples) {
  if (samples.length === 0) {
    return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

/**
 * A number with a sensible number of digits for a table cell.
 * @param {number} value
 */
export function fmt(value) {
  if (!Number.isFinite(value)) {
    return '-';
  }
  const abs = Math.abs(value);
  if (abs >= 1000) {
    return Math.round(value).toLocaleString('en-US');
  }
  if (abs >= 100) {
    return value.toFixed(0);
  }
  if (abs >= 10) {
    return value.toFixed(1);
  }
  return value.toFixed(2);
}

/**
 * `median (min-max)` for a summary; `-` when there is none.
 * @param {{ median: number, min: number, max: number } | undefined} s
 */
export function cell(s) {
  return s === undefined ? '-' : `${fmt(s.median)} (${fmt(s.min)}-${fmt(s.max)})`;
}

/**
 * A ratio as `0.42x`, or `-` when either side is missing.
 * @param {number | undefined} a
 * @param {number | undefined} b
 */
export function ratio(a, b) {
  return a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0
    ? '-'
    : `${(a / b).toFixed(2)}x`;
}

/**
 * A Markdown table (also readable as plain text on a terminal).
 * @param {readonly string[]} header
 * @param {readonly (readonly string[])[]} rows
 */
export function markdownTable(header, rows) {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => String(row[column] ?? '').length)));
  const line = (cells) => `| ${cells.map((value, column) => String(value ?? '').padEnd(widths[column])).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
