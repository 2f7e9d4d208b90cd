/**
 * `Intl.Segmenter` in bounded chunks. ICU's dictionary segmenters slow down sharply past a few
 * tens of thousands of characters without a break (a 100k-character Thai run takes 30 s where
 * 50k takes 0.1 s), so long texts are segmented a chunk at a time. A chunk ends just after the
 * last whitespace in its second half when there is one (dictionary words never span it), and
 * its last segment — possibly cut by the chunk's end — is dropped, the next chunk starting at
 * its first character. Segments come out as one call would give them, except inside a run of
 * more than half a chunk without whitespace (a long Thai run), where a word at a chunk's end
 * may be split differently; a single segment longer than a chunk is cut at the chunk's end
 * (never inside a surrogate pair).
 */

/** Characters handed to the segmenter per call. */
export const SEGMENT_CHUNK = 4096; // why: 10× below where ICU's time per character starts to climb, and long enough that nearly every chunk ends on a break.

/** One segment: its text and its offset in the whole text. */
export interface BoundedSegment {
	segment: string;
	index: number;
	/** `Intl.SegmentData#isWordLike` (undefined for sentence granularity). */
	isWordLike: boolean | undefined;
}

/** True for the whitespace that separates words in every script (space, tab, line ends, ideographic space). */
function isBreakSpace(code: number): boolean {
	return code === 32 || code === 9 || code === 10 || code === 13 || code === 0x3000 || code === 0xa0;
}

/**
 * The end of a chunk starting at `start`: the text's end when it is near, else just after the
 * last whitespace of the chunk's second half, else `start + chunk` moved back off a low surrogate.
 */
function chunkEnd(text: string, start: number, chunk: number): number {
	const limit = start + chunk;
	if (limit >= text.length) return text.length;
	for (let i = limit - 1; i > start + (chunk >> 1); i--) if (isBreakSpace(text.charCodeAt(i))) return i + 1;
	const c = text.charCodeAt(limit);
	return c >= 0xdc00 && c <= 0xdfff && limit > start + 1 ? limit - 1 : limit;
}

/** Every segment of `text`, in order, with each segmenter call seeing at most `chunk` characters. */
export function* segmentBounded(
	segmenter: Intl.Segmenter,
	text: string,
	chunk = SEGMENT_CHUNK,
): Generator<BoundedSegment> {
	let start = 0;
	while (start < text.length) {
		const end = chunkEnd(text, start, chunk);
		const last = end >= text.length;
		let pending: Intl.SegmentData | null = null;
		let emitted = false;
		for (const seg of segmenter.segment(text.slice(start, end))) {
			if (pending !== null) {
				yield { segment: pending.segment, index: start + pending.index, isWordLike: pending.isWordLike };
				emitted = true;
			}
			pending = seg;
		}
		if (pending === null) break;
		if (last || !emitted) {
			// The final chunk ends the text; a chunk of one segment cannot be retried shorter.
			yield { segment: pending.segment, index: start + pending.index, isWordLike: pending.isWordLike };
			start = end;
		} else {
			start += pending.index;
		}
	}
}
