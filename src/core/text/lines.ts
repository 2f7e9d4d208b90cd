/** Line arithmetic shared by the matchers: where lines start, which line holds an offset. */

/** Start offsets of every line in `text` (lines end at `\n`). */
export function lineStarts(text: string): number[] {
	const starts = [0];
	for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
	return starts;
}

/** The index of the line containing `offset` (binary search over line starts). */
export function lineIndexAt(starts: readonly number[], offset: number): number {
	let lo = 0;
	let hi = starts.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (starts[mid]! <= offset) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}

/** The offset where line `line` starts (the text's length past the last line). */
export function offsetOfLine(text: string, line: number): number {
	let offset = 0;
	for (let i = 0; i < line; i++) {
		const next = text.indexOf('\n', offset);
		if (next < 0) return text.length;
		offset = next + 1;
	}
	return offset;
}

/**
 * `offsetOfLine` in UTF-8 bytes (best a Node Buffer, whose `indexOf` is native: a plain
 * Uint8Array's looks at one byte at a time).
 */
export function offsetOfLineIn(bytes: Uint8Array, line: number): number {
	let offset = 0;
	for (let i = 0; i < line; i++) {
		const next = bytes.indexOf(10, offset);
		if (next < 0) return bytes.length;
		offset = next + 1;
	}
	return offset;
}

/** `text` with every line cut to at most `max` characters, and how many lines were cut (0: `text` itself). */
export function capLines(text: string, max: number): { text: string; cut: number } {
	if (text.length <= max) return { text, cut: 0 };
	const lines = text.split('\n');
	let cut = 0;
	for (let i = 0; i < lines.length; i++) {
		if (lines[i]!.length > max) {
			lines[i] = lines[i]!.slice(0, max);
			cut++;
		}
	}
	return cut === 0 ? { text, cut } : { text: lines.join('\n'), cut };
}
