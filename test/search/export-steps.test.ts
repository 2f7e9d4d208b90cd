/**
 * A save of a restored index reads every saved part of it — the dictionary, the postings, the
 * notes' records — and the plugin runs that save in time slices of Obsidian's main thread: each
 * read goes a bounded amount per step (all at once, at 50k notes, they held the thread 0.35–1.4 s
 * each), and the state the steps give is the one read at once.
 */
import { describe, expect, it } from 'vitest';
import type { DocInfo } from '../../src/core/search/extract';
import type { SavedIndexState } from '../../src/core/search/index-state';
import { docList } from '../helpers/plain-state';
import { FIELD_COUNT, InvertedIndex } from '../../src/core/search/inverted-index';
import { resolveSearchSettings } from '../../src/core/search/settings';

const NOTES = 6_000;
const TERMS = 40_000;
const BLOCK_TERMS = 64;

/** What the saved parts were asked for since the last reset. */
interface Reads {
	records: number;
	blocks: number;
	columns: number;
}

const termOf = (t: number): string => `t${String(t).padStart(6, '0')}`; // ids in string order, as saved

/** A saved state: each term in one note, every note with a record; `reads` counts what is read. */
function savedState(reads: Reads): SavedIndexState {
	const termStart = Uint32Array.from({ length: TERMS + 1 }, (_, t) => t);
	const postDocs = Uint32Array.from({ length: TERMS }, (_, t) => t % NOTES);
	const postTfs = new Uint32Array(TERMS).fill(1);
	const block = (k: number): string[] => {
		reads.blocks++;
		return Array.from({ length: Math.min(BLOCK_TERMS, TERMS - k * BLOCK_TERMS) }, (_, i) =>
			termOf(k * BLOCK_TERMS + i),
		);
	};
	const record = (d: number): DocInfo => {
		reads.records++;
		const path = `folder/note ${d}.md`;
		return {
			path,
			basename: `note ${d}`,
			title: `note ${d}`,
			folder: 'folder',
			aliases: [],
			tags: [],
			frontmatter: {},
			abstract: '',
			synthesis: false,
			forwardLinks: [],
			bodyStart: 0,
		};
	};
	return {
		terms: {
			count: TERMS,
			blockTerms: BLOCK_TERMS,
			firsts: Array.from({ length: Math.ceil(TERMS / BLOCK_TERMS) }, (_, k) => termOf(k * BLOCK_TERMS)),
			block,
		},
		postings: {
			terms: TERMS,
			total: TERMS,
			count: () => 1,
			slice: (t: number) => [postDocs.subarray(t, t + 1), postTfs.subarray(t, t + 1)],
			*columnsSteps() {
				reads.columns++;
				yield;
				return { termStart, postDocs, postTfs };
			},
		},
		docs: { count: NOTES, path: (d: number) => `folder/note ${d}.md`, record },
		fieldLen: new Uint32Array(NOTES * FIELD_COUNT).fill(3),
		namedNotes: () => [],
		linkFieldDocs: () => [],
	} as unknown as SavedIndexState;
}

describe('the save of a restored index, in steps', () => {
	it('reads the dictionary, the postings and the records a bounded amount per step, and exports what a read at once does', () => {
		const settings = resolveSearchSettings();
		const reads: Reads = { records: 0, blocks: 0, columns: 0 };
		const index = InvertedIndex.fromSaved(settings, savedState(reads));
		const steps = index.exportStateSteps();
		let most = { records: 0, blocks: 0 };
		let pauses = 0;
		let state = null;
		for (;;) {
			reads.records = 0;
			reads.blocks = 0;
			const step = steps.next();
			most = { records: Math.max(most.records, reads.records), blocks: Math.max(most.blocks, reads.blocks) };
			if (step.done === true) {
				state = step.value;
				break;
			}
			pauses++;
		}
		expect(pauses).toBeGreaterThan(5);
		expect(most.records).toBe(0); // the records are read by the save, one note at a time, not by the export
		expect(most.blocks).toBeLessThanOrEqual(8192 / BLOCK_TERMS + 1);
		expect(reads.columns).toBe(1); // the saved postings read once, through their steps
		const atOnce = InvertedIndex.fromSaved(
			settings,
			savedState({ records: 0, blocks: 0, columns: 0 }),
		).exportState();
		expect(state.termList).toEqual(atOnce.termList);
		expect(state.termList).toHaveLength(TERMS);
		expect([...state.postDocs]).toEqual([...atOnce.postDocs]);
		expect(docList(state.docs).map((d) => d.path)).toEqual(docList(atOnce.docs).map((d) => d.path));
		expect(state.docs).toHaveLength(NOTES);
	});

	it('reads each saved record when the save asks for it, and keeps none of them', () => {
		const reads: Reads = { records: 0, blocks: 0, columns: 0 };
		const index = InvertedIndex.fromSaved(resolveSearchSettings(), savedState(reads));
		const state = index.exportState();
		expect(reads.records).toBe(0);
		expect(state.docs.info(7).path).toBe('folder/note 7.md');
		expect(state.docs.path(8)).toBe('folder/note 8.md');
		expect(reads.records).toBe(1); // a path is read without its record
		state.docs.info(7);
		expect(reads.records).toBe(2); // decoded again: the first was not kept
		index.remove('folder/note 0.md');
		expect(index.exportState().docs.info(0).path).toBe('folder/note 1.md'); // ids dense after a removal
	});
});
