import fc from 'fast-check';
import { TFolder } from 'obsidian';
import { describe, expect, it } from 'vitest';
import { drain, TimeSlice } from '../../src/core/steps';
import { ObsidianNoteSource } from '../../src/obsidian/source';
import { byWalkOrder, filesInWalkOrderSteps } from '../../src/obsidian/walk-order';
import { asApp, FakeApp } from './fake-app';

/** Names that sort around `/` and each other: space, `-`, `.`, capitals, accents, an astral letter. */
const NAME = fc.constantFrom('a', 'b', 'a b', 'a-b', 'a.b', 'A', 'é', '𝒳', 'ab', 'a!', 'z');

/** The root folder of a fake vault holding `paths` (added in the given order). */
function rootOf(paths: readonly string[]): TFolder {
	return new FakeApp(Object.fromEntries(paths.map((p) => [p, '']))).vault.getRoot();
}

describe('walk order', () => {
	it('walks any folder tree in the comparator’s order, whatever order the folders keep their children in', () => {
		const pathSet = fc.uniqueArray(
			fc.array(NAME, { minLength: 1, maxLength: 4 }).map((parts) => `${parts.join('/')}.md`),
			{ maxLength: 60 },
		);
		fc.assert(
			fc.property(pathSet, fc.boolean(), (paths, reversed) => {
				const added = reversed ? [...paths].reverse() : paths;
				const walked = drain(filesInWalkOrderSteps(rootOf(added), () => true)).map((f) => f.path);
				expect(walked).toEqual([...paths].sort(byWalkOrder));
			}),
			{ numRuns: 300 },
		);
	});

	it('keeps only the files asked for', () => {
		const walked = drain(
			filesInWalkOrderSteps(rootOf(['b.md', 'a/pic.png', 'a/c.md', 'x.canvas']), (f) => f.extension === 'md'),
		);
		expect(walked.map((f) => f.path)).toEqual(['a/c.md', 'b.md']);
	});

	it('walks a large vault in steps, and the plugin keeps the list it prepared in slices', async () => {
		const paths = Array.from({ length: 10_000 }, (_, i) => `f${i % 37}/g${i % 11}/note ${i}.md`);
		const steps = filesInWalkOrderSteps(rootOf(paths), () => true);
		let pauses = 0;
		while (steps.next().done !== true) pauses++;
		expect(pauses).toBeGreaterThan(4);

		const app = new FakeApp(Object.fromEntries(paths.slice(0, 3000).map((p) => [p, ''])));
		app.indexAll();
		const source = new ObsidianNoteSource(asApp(app));
		source.setLive(true);
		let yields = 0;
		await source.prepareNotes(new TimeSlice(0, () => Promise.resolve(void yields++), Date.now));
		expect(yields).toBeGreaterThan(1);
		const listed = source.listNotes();
		expect(listed).toEqual(paths.slice(0, 3000).sort(byWalkOrder));
		expect(source.listNotes()).toBe(listed); // the prepared list, not a new walk
	});
});
