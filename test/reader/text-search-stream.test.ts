/**
 * A text-search hands each result over as the scan reaches it (VaultEngine.readStream): the first
 * result comes before the scan has read the vault, none is kept, past `max_results` the matches
 * are only counted — and the results and report are the whole answer's. Shown by counting reads.
 */
import { describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import type { ReaderHead, ReaderNoteResult, ReaderRequest } from '../../src/core/reader/index';
import { MemorySource } from '../helpers/memory-source';
import { SMALL_SCHEMA } from './helpers';

const NOTES = 60;

/** A vault of NOTES notes holding "needle" (every tenth archived), one without it, and the schema note. */
function vault(): MemorySource {
	const files: Record<string, string> = { '_meta/frontmatter-schema.md': SMALL_SCHEMA };
	for (let i = 0; i < NOTES; i++)
		files[`notes/n${String(i).padStart(3, '0')}.md`] =
			`---\ntype: claim\nstatus: ${i % 10 === 0 ? 'archived' : 'active'}\n---\n# N${i}\n\nA needle here, ${i}.\n`;
	files['notes/zz-other.md'] = '# Other\n\nNothing to find.\n';
	return new MemorySource(files);
}

/** A source that counts the notes read so far. */
function counted(source: MemorySource): { source: MemorySource; reads: () => number } {
	let reads = 0;
	const read = source.read.bind(source);
	source.read = (path: string) => {
		reads++;
		return read(path);
	};
	return { source, reads: () => reads };
}

const REQUEST = { operation: 'text-search', pattern: 'needle' } as const satisfies ReaderRequest;
const MATCHING = NOTES - NOTES / 10;

describe('a streamed text-search', () => {
	it('hands over each result as it is found, keeps none, and agrees with the whole report', async () => {
		const { source, reads } = counted(vault());
		const engine = new VaultEngine(source);
		const heads: ReaderHead[] = [];
		const readsAt: number[] = [];
		const streamed: ReaderNoteResult[] = [];
		const report = await engine.readStream(REQUEST, {
			begin: (head) => void heads.push(head),
			note: async (brief, full) => {
				readsAt.push(reads());
				const result = await full();
				// The brief is what a text listing shows: the full result's path, title and matches.
				expect(brief).toEqual({ path: result.path, title: result.title, matches: result.matches });
				streamed.push(result);
			},
		});
		const total = reads();
		const whole = await new VaultEngine(vault()).read({ ...REQUEST });
		expect(heads).toHaveLength(1);
		expect(streamed).toHaveLength(whole.results.length);
		expect(streamed.length).toBe(25);
		// The first result is handed over after a couple of reads, not after the whole scan.
		expect(readsAt[0]).toBeLessThanOrEqual(3);
		expect(readsAt[0]).toBeLessThan(total / 10);
		expect(report.results).toEqual([]);
		expect(streamed).toEqual(whole.results);
		expect({ ...report, results: whole.results }).toEqual(whole);
		expect(report.matched).toBe(MATCHING);
		expect(report.limitations).toContain(`Truncated to 25; ${MATCHING} total matches before cap`);
		expect(report.limitations).toContain(
			'Filters applied: include_archived=false (6 notes with status: archived excluded)',
		);
	});

	it('with a limit above the matches hands over every one, and the report says no cap', async () => {
		const engine = new VaultEngine(vault());
		const paths: string[] = [];
		const report = await engine.readStream(
			{ ...REQUEST, max_results: 100_000, include_archived: true },
			{ begin: () => undefined, note: (result) => void paths.push(result.path) },
		);
		expect(paths).toHaveLength(NOTES);
		expect(paths).toEqual([...paths].sort());
		expect(report.matched).toBe(NOTES);
		expect(report.limitations.some((l) => l.startsWith('Truncated'))).toBe(false);
	});

	it('that cannot run hands over nothing and fails', async () => {
		const engine = new VaultEngine(vault());
		let calls = 0;
		const report = await engine.readStream(
			{ ...REQUEST, regex: true, pattern: '(' },
			{ begin: () => void calls++, note: () => void calls++ },
		);
		expect(report.status).toBe('failed');
		expect(calls).toBe(0);
	});
});
