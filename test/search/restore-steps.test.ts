/**
 * An index over a saved part comes in in steps (the plugin runs them in time slices of Obsidian's
 * main thread): the notes' path map of a large vault is made a bounded number of notes per step,
 * and the index the steps give is the one made at once — same notes, same field lengths.
 */
import { describe, expect, it } from 'vitest';
import { FIELD_COUNT, InvertedIndex } from '../../src/core/search/inverted-index';
import type { SavedIndexState } from '../../src/core/search/index-state';
import { resolveSearchSettings } from '../../src/core/search/settings';

const NOTES = 20_000;

/** A saved state of `NOTES` notes with no terms; `reads` counts the note paths asked for. */
function savedState(reads: { count: number }): SavedIndexState {
	const fieldLen = new Uint32Array(NOTES * FIELD_COUNT);
	for (let i = 0; i < fieldLen.length; i++) fieldLen[i] = (i * 7) % 13;
	return {
		terms: { count: 0, blockTerms: 64, firsts: [], block: () => [] },
		postings: { terms: 0, total: 0, count: () => 0, slice: () => [new Uint32Array(0), new Uint32Array(0)] },
		docs: {
			count: NOTES,
			path: (d: number) => (reads.count++, `folder/note ${d}.md`),
			record: () => {
				throw new Error('no record is read while restoring');
			},
		},
		fieldLen,
		namedNotes: () => [],
		linkFieldDocs: () => [],
	} as unknown as SavedIndexState;
}

describe('the inverted index restored in steps', () => {
	it('takes a few thousand notes per step, and gives the index made at once', () => {
		const settings = resolveSearchSettings();
		const reads = { count: 0 };
		const steps = InvertedIndex.fromSavedSteps(settings, savedState(reads));
		let pauses = 0;
		let most = 0;
		let restored: InvertedIndex | null = null;
		for (;;) {
			reads.count = 0;
			const step = steps.next();
			most = Math.max(most, reads.count);
			if (step.done === true) {
				restored = step.value;
				break;
			}
			pauses++;
		}
		expect(pauses).toBeGreaterThanOrEqual(4);
		expect(most).toBeLessThanOrEqual(NOTES / 4);

		const atOnce = InvertedIndex.fromSaved(settings, savedState({ count: 0 }));
		expect(restored.size).toBe(NOTES);
		expect([...restored.pathToDoc]).toEqual([...atOnce.pathToDoc]);
		expect(restored.pathToDoc.get(`folder/note ${NOTES - 1}.md`)).toBe(NOTES - 1);
		expect(restored.isAlive(NOTES - 1)).toBe(true);
		expect(restored.isAlive(NOTES)).toBe(false);
	});
});
