import { describe, expect, it } from 'vitest';
import { findNote } from '../../src/core/note-ref';
import { MemorySource } from '../helpers/memory-source';

/** A source that hands out one notes list while nothing changes, as the vault sources do (the name index is keyed by it). */
class StableList extends MemorySource {
	private readonly notes = super.listNotes();

	override listNotes(): readonly string[] {
		return this.notes;
	}
}

describe('findNote names a note the same on every lookup in one vault', () => {
	it('exact paths, unique and shared file names, case, .md and unknown names answer the same the first time and after (when a name index is used)', () => {
		const source = new StableList({
			'Home.md': '# Home\n',
			'projects/Plan.md': '# Plan\n',
			'projects/old/Plan.md': '# Old plan\n',
			'archive/Notes/Idea.md': '# Idea\n',
			'people/Ada Lovelace.md': '# Ada\n',
		});
		const names = [
			'Home',
			'home.md',
			'Plan',
			'projects/Plan',
			'old/plan',
			'Idea',
			'notes/idea',
			'Ada Lovelace',
			'Nowhere',
			'Hom',
		];
		const first = names.map((name) => findNote(source, name));
		expect(first.map((ref) => ref.kind)).toEqual([
			'found',
			'found',
			'ambiguous',
			'found',
			'found',
			'found',
			'found',
			'found',
			'unknown',
			'unknown',
		]);
		expect(first[2]).toMatchObject({ candidates: ['projects/Plan.md', 'projects/old/Plan.md'] });
		expect(first[6]).toEqual({ kind: 'found', path: 'archive/Notes/Idea.md' });
		for (let round = 0; round < 2; round++) expect(names.map((name) => findNote(source, name))).toEqual(first);
	});
});
