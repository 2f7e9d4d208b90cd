/**
 * The inline scanner's segments: the parts of one leaf block's lines (container prefixes cut
 * off) it collects from the block pass, the cached forward searches for its special characters,
 * and the searches for closers that cross segments (code spans, comments, `$$`, `]]`), with the
 * failure memos that keep unclosed runs linear. `InlineScanner` (inline.ts) scans them.
 */
import { CH } from './chars';
import { ForwardSearch } from './forward-search';
import type { MetadataSink } from './sink';

// The characters that may start an inline construct are `[` (links; `![` embeds are found
// from their `[`), `#`, `` ` ``, `<` and `$` (slots 0–4); backslash escapes are checked by
// looking back from those. Plain text between them is skipped with cached forward indexOf
// searches (measured faster than one regex over a character class), so no JS loop visits it.
// Slots 5–7 are the closers searched for across lines.
const NEEDLES = ['[', '#', '`', '<', '$', '-->', '$$', ']]'];
const SLOT_BACKTICK = 2;
/** Search slot of `-->`, the end of an HTML comment. */
export const SLOT_COMMENT_END = 5;
/** Search slot of `$$`, the end of display math. */
export const SLOT_DOUBLE_DOLLAR = 6;
/** Search slot of `]]`, the end of a wikilink. */
export const SLOT_WIKI_CLOSE = 7;

/** The segments of one leaf block and the searches over them; the scanner adds the constructs. */
export abstract class InlineSegments {
	protected text = '';
	protected sink: MetadataSink;
	protected segStart: number[] = [];
	protected segEnd: number[] = [];
	protected segLine: number[] = [];
	protected segLineStart: number[] = [];
	/** Number of segments collected for the current leaf. */
	count = 0;
	// Result slots of the cross-segment searches (avoids allocating a tuple per search).
	protected foundSeg = 0;
	protected foundPos = 0;
	protected readonly search = new ForwardSearch(NEEDLES);
	protected specialFrom = 0;
	protected specialAt = -1;
	// Failure memos, valid for the scan numbered `scanId`: a closer not found once will not be
	// found by a later search in the same leaf either (keeps unclosed runs linear).
	protected scanId = 0;
	protected readonly backtickFail: number[] = [];
	protected readonly acrossFail: number[] = NEEDLES.map(() => 0);
	protected mathFailSeg = -1;
	protected mathFailScan = 0;

	constructor(sink: MetadataSink) {
		this.sink = sink;
	}

	/** Start scanning a new text (positions refer to it). */
	reset(text: string, sink: MetadataSink): void {
		this.text = text;
		this.sink = sink;
		this.count = 0;
		this.search.reset(text);
		this.specialFrom = 0;
		this.specialAt = -1;
	}

	/** Drop the text of the last note. */
	release(): void {
		this.text = '';
		this.search.release();
	}

	/** Offset of the next special character at or after `i` (text length if none). */
	protected nextSpecial(i: number): number {
		// The answer for any i between the last query and its answer is that same answer.
		if (i <= this.specialAt && i >= this.specialFrom) return this.specialAt;
		const search = this.search;
		let min = search.next(0, i);
		for (let k = 1; k < 5; k++) {
			const at = search.next(k, i);
			if (at < min) min = at;
		}
		this.specialFrom = i;
		this.specialAt = min;
		return min;
	}

	/** Add the line part [start, end) of 0-based `line` whose first character is at `lineStart`. */
	add(start: number, end: number, line: number, lineStart: number): void {
		const i = this.count++;
		this.segStart[i] = start;
		this.segEnd[i] = end;
		this.segLine[i] = line;
		this.segLineStart[i] = lineStart;
	}

	/** Segment accessors for the block pass (block ids, heading text). */
	startOf(i: number): number {
		return this.segStart[i]!;
	}
	/** End offset of segment `i`. */
	endOf(i: number): number {
		return this.segEnd[i]!;
	}
	/** Line of segment `i`. */
	lineOf(i: number): number {
		return this.segLine[i]!;
	}
	/** Line start offset of segment `i`. */
	lineStartOf(i: number): number {
		return this.segLineStart[i]!;
	}

	/** Drop the collected segments without scanning them. */
	clear(): void {
		this.count = 0;
	}

	/**
	 * The next `slot` needle at or after offset `i` that starts inside one of segments `s`…`n - 1`
	 * (one in the gap between two is passed over). Sets foundSeg/foundPos to its segment and offset.
	 */
	private nextInSegments(slot: number, s: number, i: number, n: number): boolean {
		for (;;) {
			const k = this.search.next(slot, i);
			while (s < n && k >= this.segEnd[s]!) s++;
			if (s >= n) return false;
			if (k >= this.segStart[s]!) {
				this.foundSeg = s;
				this.foundPos = k;
				return true;
			}
			i = this.segStart[s]!;
		}
	}

	/**
	 * Find a backtick run of exactly `len` from offset `from` of segment `s` on (code spans may
	 * cross lines). Sets foundSeg/foundPos to just past the closer.
	 */
	protected findBacktickCloser(s: number, from: number, len: number, n: number): boolean {
		if (this.backtickFail[len] === this.scanId) return false;
		const text = this.text;
		let i = from;
		while (this.nextInSegments(SLOT_BACKTICK, s, i, n)) {
			s = this.foundSeg;
			const k = this.foundPos;
			const end = this.segEnd[s]!;
			let j = k + 1;
			while (j < end && text.charCodeAt(j) === CH.BACKTICK) j++;
			if (j - k === len) {
				this.foundPos = j;
				return true;
			}
			i = j;
		}
		this.backtickFail[len] = this.scanId;
		return false;
	}

	/** Find the closer in `slot` from offset `from` of segment `s` on; sets foundSeg/foundPos past it. */
	protected findAcross(slot: number, s: number, from: number, n: number): boolean {
		if (this.acrossFail[slot] === this.scanId) return false;
		const len = NEEDLES[slot]!.length;
		let i = from;
		while (this.nextInSegments(slot, s, i, n)) {
			s = this.foundSeg;
			const k = this.foundPos;
			// The closer must end in the segment it starts in.
			if (k + len <= this.segEnd[s]!) {
				this.foundPos = k + len;
				return true;
			}
			i = k + 1;
		}
		this.acrossFail[slot] = this.scanId;
		return false;
	}
}
