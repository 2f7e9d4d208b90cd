/**
 * A host that keeps its main thread free passes a time budget to a search: the pass over every
 * note's links that finds the hits' backlinks pauses when it is used up. The answer is the one the
 * search gives in one go, and over more notes than one step the search does pause; it also pauses
 * between its phases, and the ranking pauses within itself (rank-steps.test.ts: at 50k notes it
 * takes tens of milliseconds, the notes' length norms included).
 */
import { describe, expect, it } from 'vitest';
import { search, SearchIndex } from '../../src/core/search/search';
import { TimeSlice } from '../../src/core/steps';
import { MemorySource } from '../helpers/memory-source';

/** 1,300 notes: each links to one of three hubs, and a few mention the searched word. */
function vault(): Record<string, string> {
	const files: Record<string, string> = {};
	for (const hub of ['alpha', 'beta', 'gamma']) files[`hubs/${hub}.md`] = `# ${hub}\n\nA harbour hub.\n`;
	for (let i = 0; i < 1300; i++) {
		const hub = ['alpha', 'beta', 'gamma'][i % 3]!;
		const word = i % 97 === 0 ? 'harbour' : 'field';
		files[`notes/n${i}.md`] = `---\nup: "[[${hub}]]"\n---\n# Note ${i}\n\nA ${word} note about [[${hub}]].\n`;
	}
	return files;
}

describe('a search in the host slices', () => {
	it('answers what the search in one go answers, pausing during the pass over the links', async () => {
		const source = new MemorySource(vault());
		const si = await SearchIndex.build(source);
		const whole = await search(si, 'harbour', { limit: 10 });
		let pauses = 0;
		// A budget of 0 ms is used up at every step: the pass pauses after each step of notes.
		const slice = new TimeSlice(
			0,
			() => Promise.resolve(void pauses++),
			() => 0,
		);
		const sliced = await search(si, 'harbour', { limit: 10, slice });
		expect(sliced).toEqual(whole);
		expect(whole.results.map((r) => r.path)).toContain('hubs/alpha.md');
		expect(whole.results.find((r) => r.path === 'hubs/alpha.md')?.backlinks).toHaveLength(434);
		expect(pauses).toBeGreaterThanOrEqual(2);
	});

	it('hands the thread back before the ranking (the length norms first) and before the hits, with the answer of one go', async () => {
		const files = vault();
		const source = new MemorySource(files);
		const options = { limit: 10, withLinks: false, withBacklinks: false };
		// An edit makes every note's length norm stale: computed again as the ranking starts.
		const edited = async (): Promise<SearchIndex> => {
			const si = await SearchIndex.build(source);
			si.upsert({
				path: 'notes/n1.md',
				text: files['notes/n1.md']!,
				metadata: source.getMetadata('notes/n1.md'),
			});
			return si;
		};
		const whole = await search(await edited(), 'harbour note', options);
		const si = await edited();
		const steps: string[] = [];
		const slice = new TimeSlice(
			0,
			() => Promise.resolve(void steps.push('pause')),
			() => 0,
		);
		const norms = si.index.ensureNormSteps.bind(si.index);
		si.index.ensureNormSteps = function* () {
			steps.push('norms');
			yield* norms();
		};
		const sliced = await search(si, 'harbour note', { ...options, slice });
		expect(sliced).toEqual(whole);
		expect(whole.results).toHaveLength(10);
		// no pass over the links here: the pauses are the phases'
		// (each term's scoring makes sure of the norms again: no work once they are computed)
		expect(steps.filter((step, i) => step !== steps[i - 1])).toEqual(['pause', 'norms', 'pause']);
	});
});
