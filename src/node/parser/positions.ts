/**
 * Positions as Obsidian reports them: 0-based line and column, offset from the start of the
 * text, all in UTF-16 code units. The scanners always know the start offset of the current
 * line, so a Loc is built in O(1) without a line table.
 *
 * CRLF: the `\r` of a CRLF pair is a character of the text, so offsets count it; a line's end
 * is taken *before* the `\r`, so no position ever points between `\r` and `\n`.
 */
import type { Loc, Pos } from '../../core/metadata';

/** A Loc on `line`, whose first character is at `lineStart`, at text offset `offset`. */
export function loc(line: number, lineStart: number, offset: number): Loc {
	return { line, col: offset - lineStart, offset };
}

/** A Pos from two Locs. */
export function span(start: Loc, end: Loc): Pos {
	return { start, end };
}
