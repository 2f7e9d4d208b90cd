import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drain, TimeSlice } from '../../src/core/steps';
import { ObsidianNoteSource } from '../../src/obsidian/source';
import { byWalkOrder, sortedByWalkOrder, walkOrderSteps } from '../../src/obsidian/walk-order';
import { asApp, FakeApp } from './fake-app';

/** Names that sort around `/` and each other: space, `-`, `.`, capitals, accents, an astral letter. */
const NAME = fc.constantFrom('a', 'b', 'a b', 'a-b', 'a.b', 'A', 'é', '𝒳', 'ab', 'a!', 'z');

describe('walk order', () => {
	it('orders any set of paths as the comparator does (a folder and a file never share a name)', () => {
		const pathSet = fc.uniqueArray(fc.array(NAME, { minLength: 1, maxLength: 4 }).map((parts) => `${parts.join('/')}.md`), { maxLength: 60 });
		fc.assert(
			fc.property(pathSet, (paths) => {
				expect(sortedByWalkOrder(paths)).toEqual([...paths].sort(byWalkOrder));
			}),
			{ numRuns: 300 },
		);
	});

	it('orders a large vault in steps, and the plugin keeps the list it prepared in slices', async () => {
		const paths = Array.from({ length: 10_000 }, (_, i) => `f${i % 37}/g${i % 11}/note ${i}.md`);
		const steps = walkOrderSteps(paths);
		let pauses = 0;
		while (steps.next().done !== true) pauses++;
		expect(pauses).toBeGreaterThan(4);
		expect(drain(walkOrderSteps(paths))).toEqual([...paths].sort(byWalkOrder));

		const app = new FakeApp(Object.fromEntries(paths.slice(0, 3000).map((p) => [p, ''])));
		app.indexAll();
		const source = new ObsidianNoteSource(asApp(app));
		source.setLive(true);
		let yields = 0;
		await source.prepareNotes(new TimeSlice(0, () => Promise.resolve(void yields++), Date.now));
		expect(yields).toBeGreaterThan(1);
		const listed = source.listNotes();
		expect(listed).toEqual(paths.slice(0, 3000).sort(byWalkOrder));
		expect(source.listNotes()).toBe(listed); // the prepared list, not a new sort
	});
});
