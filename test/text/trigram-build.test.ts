/**
 * The sliced trigram build (core/text/trigram-build.ts) the MCP server runs in the background:
 * whatever the segment size, it gives exactly the columns of an index built note by note with
 * `upsert`, so its candidates are the same; unreadable notes are left unknown (scanned); it yields
 * between slices and can be cancelled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TrigramIndex } from '../../src/core/text/trigram';
import { buildTrigramsSliced, type NoteToIndex } from '../../src/core/text/trigram-build';
import { literalQuery } from '../../src/core/text/trigram-query';

const PIECES = [
	'a',
	'ab',
	'abc',
	'ABC',
	'the',
	'é',
	'e\u0301',
	'café',
	'漢字',
	'笔记',
	'😀',
	'Σ',
	'ς',
	'ß',
	' ',
	'\n',
	'\r\n',
	'2024',
	'obsidian',
	'Canvas',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''));

/** Notes `n0.md`… over `texts`, read from memory. */
function notesOf(texts: string[]): NoteToIndex[] {
	return texts.map((t, i) => ({ path: `n${i}.md`, read: () => Promise.resolve(t) }));
}

/** The index built one upsert at a time (the reference). */
function upserted(texts: string[]): TrigramIndex {
	const index = new TrigramIndex();
	texts.forEach((t, i) => index.upsert(`n${i}.md`, t));
	return index;
}

describe('sliced trigram build', () => {
	it('gives the same columns as upserting note by note, for any segment size', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(text, { maxLength: 40 }),
				fc.integer({ min: 1, max: 200 }),
				async (texts, segmentPostings) => {
					const built = await buildTrigramsSliced(notesOf(texts), {
						segmentPostings,
						yieldFn: () => Promise.resolve(),
					});
					expect(built!.columns()).toEqual(upserted(texts).columns());
				},
			),
			{ numRuns: 200, seed: 20261201 },
		);
	});

	it('leaves a note it cannot read unknown, so a grep scans it', async () => {
		const notes = [
			...notesOf(['canvas one', 'nothing here']),
			{ path: 'gone.md', read: () => Promise.reject(new Error('gone')) },
		];
		const built = (await buildTrigramsSliced(notes))!;
		expect(built.has('gone.md')).toBe(false);
		expect(built.has('n1.md')).toBe(true);
		expect([...built.candidates(literalQuery('canvas'))!]).toEqual(['n0.md']);
	});

	it('yields to the host between slices, and stops when cancelled', async () => {
		let yields = 0;
		const texts = Array.from({ length: 300 }, (_, i) => `note ${i} `.repeat(50));
		await buildTrigramsSliced(notesOf(texts), {
			sliceMs: 0,
			segmentPostings: 500,
			yieldFn: () => Promise.resolve(void yields++),
		});
		expect(yields).toBeGreaterThan(300);
		let reads = 0;
		const counted = notesOf(texts).map((n) => ({ ...n, read: () => (reads++, n.read()) }));
		expect(await buildTrigramsSliced(counted, { cancelled: () => reads >= 10 })).toBeNull();
		expect(reads).toBe(10);
	});
});
