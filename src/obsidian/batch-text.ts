/**
 * A batch of posted notes decoded in one `TextDecoder.decode` call (posted-notes.ts). The main
 * thread sends a batch's bytes end to end in one buffer (worker-host.ts); decoding each note on
 * its own allocated a text per note in the worker, and in Chromium the main thread's
 * `postMessage` then waited on the busy worker's allocations, 37–123 ms at a time. Decoded 32
 * notes at a time, a 50k-note first start's long tasks during the build fell from 2.3 to 0.75 a
 * run (BENCHMARKS, 2026-12-04). Cut apart again, each note's text is exactly what decoding it alone
 * gives — the batch is decoded whole only when every note is valid UTF-8, which decodes piece by
 * piece; a batch with a malformed note is left to be decoded note by note.
 */
import type { PostedNote } from './worker-protocol';

/** Continuation bytes: 10xxxxxx. */
const isTail = (b: number): boolean => (b & 0xc0) === 0x80;

/**
 * The UTF-16 length of `bytes` read as UTF-8, or -1 when a sequence is malformed (a stray
 * continuation byte, a truncated, overlong or surrogate sequence, a code point past U+10FFFF):
 * WHATWG's decoder would write U+FFFD there, so a cut by these lengths could fall mid-note.
 */
export function utf16LengthOfUtf8(bytes: Uint8Array): number {
	let units = 0;
	const n = bytes.length;
	let i = 0;
	while (i < n) {
		const b = bytes[i]!;
		if (b < 0x80) {
			i++;
			units++;
			continue;
		}
		// Bytes after the lead, and the range of the first of them (narrower where a lead allows an overlong form, a surrogate or a code point past U+10FFFF).
		let tails: number;
		let low = 0x80;
		let high = 0xbf;
		if (b >= 0xc2 && b <= 0xdf) tails = 1;
		else if (b >= 0xe0 && b <= 0xef) tails = 2;
		else if (b >= 0xf0 && b <= 0xf4) tails = 3;
		else return -1;
		if (b === 0xe0) low = 0xa0;
		else if (b === 0xed) high = 0x9f;
		else if (b === 0xf0) low = 0x90;
		else if (b === 0xf4) high = 0x8f;
		if (i + tails >= n) return -1; // truncated
		const second = bytes[i + 1]!;
		if (second < low || second > high) return -1;
		for (let k = 2; k <= tails; k++) if (!isTail(bytes[i + k]!)) return -1;
		i += tails + 1;
		units += tails === 3 ? 2 : 1;
	}
	return units;
}

/** Decodes every batch (made at the first batch: a worker that never gets one makes none); a BOM is kept, to be dropped per note. */
let decoder: TextDecoder | null = null;

/**
 * Per note its text (a leading BOM dropped, as Obsidian reads a file), or null for a note that came
 * without bytes; null altogether when the notes' bytes are not one run of one buffer, or a note is
 * not valid UTF-8 — then each is decoded on its own.
 */
export function batchTexts(notes: readonly PostedNote[]): (string | null)[] | null {
	let first: Uint8Array | null = null;
	let end = 0;
	const lengths: number[] = [];
	for (const note of notes) {
		const bytes = note.bytes;
		if (bytes === null) continue;
		if (first === null) {
			first = bytes;
			end = bytes.byteOffset;
		}
		if (bytes.buffer !== first.buffer || bytes.byteOffset !== end) return null;
		const length = utf16LengthOfUtf8(bytes);
		if (length < 0) return null;
		lengths.push(length);
		end += bytes.length;
	}
	if (first === null) return null;
	decoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
	const all = decoder.decode(new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset));
	let at = 0;
	let next = 0;
	return notes.map((note) => {
		if (note.bytes === null) return null;
		const from = at;
		at += lengths[next++]!;
		return all.charCodeAt(from) === 0xfeff && from < at ? all.slice(from + 1, at) : all.slice(from, at);
	});
}
