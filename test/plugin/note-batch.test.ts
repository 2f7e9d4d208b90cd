/**
 * A batch of notes packed into one buffer (note-batch.ts) unpacks to what a structured clone of
 * the notes would give: every note's bytes (an empty note's too), unreadable and skipped notes,
 * paths of any characters, and frontmatter values JSON alone would change — non-finite numbers,
 * dates, big integers, undefined in an array — tagged only in a batch that has them.
 */
import { describe, expect, it } from 'vitest';
import { packNoteBatch, unpackNoteBatch } from '../../src/obsidian/note-batch';
import type { PostedNote } from '../../src/obsidian/worker-protocol';

const encoder = new TextEncoder();

/** A note read as `text`, with `frontmatter` in its metadata. */
function note(path: string, text: string, frontmatter: Record<string, unknown> = { title: path }): PostedNote {
	return {
		path,
		bytes: encoder.encode(text),
		error: null,
		metadata: {
			frontmatter,
			headings: [
				{
					heading: 'Héading',
					level: 1,
					position: { start: { line: 3, col: 0, offset: 20 }, end: { line: 3, col: 10, offset: 30 } },
				},
			],
			tags: [
				{
					tag: '#tag',
					position: { start: { line: 4, col: 0, offset: 31 }, end: { line: 4, col: 4, offset: 35 } },
				},
			],
		},
		skipReason: null,
		frontmatterError: null,
	};
}

/** The notes as the worker compares them: bytes as plain arrays. */
function comparable(notes: readonly PostedNote[]): unknown[] {
	return notes.map((n) => ({ ...n, bytes: n.bytes === null ? null : [...n.bytes] }));
}

/** Packed into a fresh buffer of the size asked, then unpacked. */
function roundTrip(notes: readonly PostedNote[]): { unpacked: PostedNote[]; tagged: boolean; asked: number[] } {
	const asked: number[] = [];
	const batch = packNoteBatch(notes, (bytes) => {
		asked.push(bytes);
		return new ArrayBuffer(bytes);
	});
	return { unpacked: unpackNoteBatch(batch), tagged: batch.tagged, asked };
}

describe('a batch of notes in one buffer', () => {
	it('unpacks every note as posted, its bytes views into the one buffer', () => {
		const notes: PostedNote[] = [
			note('a.md', '# A\nbody'),
			note('empty.md', ''),
			{
				path: 'gone.md',
				bytes: null,
				error: 'ENOENT: gone.md',
				metadata: null,
				skipReason: null,
				frontmatterError: null,
			},
			{ ...note('big.md', 'x'.repeat(10_000)), metadata: null, skipReason: 'larger than the size limit' },
			{ ...note('broken.md', '---\n: :\n---\n'), frontmatterError: 'bad indentation' },
			note('ünï/コード lone \ud800 surrogate.md', 'テキスト 🙂'),
		];
		const { unpacked, tagged, asked } = roundTrip(notes);
		expect(tagged).toBe(false);
		expect(comparable(unpacked)).toEqual(comparable(structuredClone(notes)));
		expect(asked).toHaveLength(1);
		const buffers = new Set(unpacked.flatMap((n) => (n.bytes === null ? [] : [n.bytes.buffer])));
		expect(buffers.size).toBe(1);
	});

	it('keeps the frontmatter values JSON would change, as a structured clone does', () => {
		const odd = {
			nan: Number.NaN,
			inf: Number.POSITIVE_INFINITY,
			ninf: Number.NEGATIVE_INFINITY,
			when: new Date('2024-05-06T07:08:09.010Z'),
			big: 12345678901234567890n,
			list: [1, undefined, 'two', [Number.NaN]],
			nested: { deeper: { inf: Number.NEGATIVE_INFINITY, plain: 'kept', zero: 0 } },
		};
		const notes = [note('plain.md', 'a'), note('odd.md', 'b', odd)];
		const { unpacked, tagged } = roundTrip(notes);
		expect(tagged).toBe(true);
		const frontmatter = unpacked[1]!.metadata!.frontmatter as typeof odd;
		expect(frontmatter.nan).toBeNaN();
		expect(frontmatter.inf).toBe(Number.POSITIVE_INFINITY);
		expect(frontmatter.ninf).toBe(Number.NEGATIVE_INFINITY);
		expect(frontmatter.when).toEqual(odd.when);
		expect(frontmatter.big).toBe(odd.big);
		expect(frontmatter.list.length).toBe(4);
		expect(frontmatter.list[1]).toBeUndefined();
		expect(frontmatter.list[3]).toEqual([Number.NaN]);
		expect(frontmatter.nested).toEqual(odd.nested);
		expect(comparable([unpacked[0]!])).toEqual(comparable([notes[0]!]));
	});
});
