/**
 * Layout of the playground's live log, as plain functions (tested in Node). The log is an `<ol>`: its
 * numbers are list markers drawn in the list's left padding, and the list scrolls (`overflow: auto`),
 * so a marker wider than the padding is clipped on the left: "10." showed as "0.".
 */

/** The marker the browser draws for line `n` of a decimal list: `10.` and the space after it. */
export function markerText(n: number): string {
  return `${n}. `;
}

/**
 * The left padding that fits the widest marker of a list of `lines` lines, in `ch` of the list's
 * monospace font: the widest marker is the last line's.
 */
export function logIndent(lines: number): string {
  return `${markerText(Math.max(1, lines)).length}ch`;
}
