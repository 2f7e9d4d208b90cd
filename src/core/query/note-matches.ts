/** The matching lines of one note as a grep hands them on: strings, or the note's own bytes for a text listing. */
import type { LineMatch } from '../contract';
import type { NoteBytes } from '../port';
import type { Listed } from '../text/line-scan';

/**
 * The lines a note shows, as its own bytes (a text listing copies them without decoding): four
 * numbers per line — its 1-based number, 1 when it matched, where its bytes start and end (line
 * end and CR left out) — and -1 between two stretches of lines.
 */
export interface RawLines {
	/** The note's bytes (valid until the source's next read) and the same as Latin-1. */
	note: NoteBytes;
	readonly lines: number[];
	/**
	 * The same lines as the listing prints them (heads and bytes, see line-list-code.ts), where the
	 * WebAssembly scan found them: copied as they are when they hold no character the terminal escapes.
	 */
	listed?: Listed;
}

/** The matches of one note (see `matchLines` in grep.ts); `raw` instead of `matches` when the lines are left as bytes. */
export interface NoteMatches {
	matches: LineMatch[];
	/** How many matching lines are shown. */
	shown: number;
	total: number;
	cutLines: number;
	raw?: RawLines;
}
