/**
 * GFM table recognition: a header row with a `|`, directly followed by a delimiter row
 * (`| --- | :-: |`) with the same number of cells.
 */
import { CH, skipBlanks, trimmedEnd } from './chars';

/** Number of cells in a row [p, end): unescaped `|` separators, outer pipes optional. */
export function countCells(text: string, p: number, end: number): number {
	let s = skipBlanks(text, p, end);
	let e = trimmedEnd(text, s, end);
	if (s < e && text.charCodeAt(s) === CH.PIPE) s++;
	if (e > s && text.charCodeAt(e - 1) === CH.PIPE && text.charCodeAt(e - 2) !== CH.BACKSLASH) e--;
	let cells = 1;
	for (let k = s; k < e; k++) {
		const c = text.charCodeAt(k);
		if (c === CH.BACKSLASH) k++;
		else if (c === CH.PIPE) cells++;
	}
	return cells;
}

/** True when [p, end) holds an unescaped `|`. */
export function hasPipe(text: string, p: number, end: number): boolean {
	for (let k = p; k < end; k++) {
		const c = text.charCodeAt(k);
		if (c === CH.BACKSLASH) k++;
		else if (c === CH.PIPE) return true;
	}
	return false;
}

/** Cell count of a delimiter row [p, end) (`|:--|--:|`), or 0 when it is not one. */
export function delimiterCells(text: string, p: number, end: number): number {
	let cells = 0;
	let k = skipBlanks(text, p, end);
	let sawPipe = false;
	if (k < end && text.charCodeAt(k) === CH.PIPE) {
		sawPipe = true;
		k++;
	}
	for (;;) {
		k = skipBlanks(text, k, end);
		if (k >= end) break;
		if (text.charCodeAt(k) === CH.COLON) k++;
		let dashes = 0;
		while (k < end && text.charCodeAt(k) === CH.DASH) {
			k++;
			dashes++;
		}
		if (dashes === 0) return 0;
		if (k < end && text.charCodeAt(k) === CH.COLON) k++;
		k = skipBlanks(text, k, end);
		cells++;
		if (k >= end) break;
		if (text.charCodeAt(k) !== CH.PIPE) return 0;
		sawPipe = true;
		k++;
	}
	// A lone `---` is a setext underline or thematic break, never a one-column delimiter row.
	return sawPipe ? cells : 0;
}
