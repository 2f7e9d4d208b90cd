/**
 * Cached forward searches: "where is the next `needle` at or after i?" answered with one
 * String#indexOf (native, memchr-style) whose result is reused for every later query that
 * falls between the searched-from offset and the answer. Scans move forward, so each needle
 * costs about one pass over the text however many queries are made.
 */
export class ForwardSearch {
	private text = '';
	private readonly needles: readonly string[];
	private readonly from: number[];
	private readonly at: number[];

	constructor(needles: readonly string[]) {
		this.needles = needles;
		this.from = needles.map(() => 0);
		this.at = needles.map(() => -1);
	}

	/** Search a new text. */
	reset(text: string): void {
		this.text = text;
		this.from.fill(0);
		this.at.fill(-1);
	}

	/** Drop the text (the caches are reset by the next `reset`). */
	release(): void {
		this.text = '';
	}

	/** Offset of the first `needles[slot]` at or after `i`, or the text length when none. */
	next(slot: number, i: number): number {
		const at = this.at[slot]!;
		if (at >= i && this.from[slot]! <= i) return at;
		let found = this.text.indexOf(this.needles[slot]!, i);
		if (found < 0) found = this.text.length;
		this.from[slot] = i;
		this.at[slot] = found;
		return found;
	}
}
