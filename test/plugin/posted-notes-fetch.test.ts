/**
 * A re-save's worker fetches the notes it re-indexes all at once (PostedNotes.fetch): it asks the
 * main thread for the listed notes it does not have, once, and resolves when every one has come —
 * across batches — so each note's skip reason is known before the note is read, and a read then
 * answers from what came, asking nothing more.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_SETTINGS } from '../../src/core/search/settings';
import { PostedNotes } from '../../src/obsidian/posted-notes';
import { packPaths, type PostedNote } from '../../src/obsidian/worker-protocol';

/** A posted note of `text` in a buffer of its own. */
function posted(path: string, text: string | null, skipReason: string | null = null): PostedNote {
	const bytes = text === null ? null : new TextEncoder().encode(text);
	return { path, bytes, error: text === null ? 'gone' : null, metadata: null, skipReason, frontmatterError: null };
}

function notesOver(paths: string[]): { notes: PostedNotes; asked: string[][] } {
	const asked: string[][] = [];
	const list = {
		settings: DEFAULT_SEARCH_SETTINGS,
		vault: { vaultPath: '/v', configDir: '.obsidian', userIgnoreFilters: [] },
		notes: packPaths(paths),
	};
	return { notes: new PostedNotes(list, (paths) => asked.push(paths), []), asked };
}

describe('fetching the notes a re-save re-indexes', () => {
	it('asks once for the listed notes, resolves when all came, and reads them without asking again', async () => {
		const { notes, asked } = notesOver(['a.md', 'b.md', 'c.md', 'big.md']);
		let done = false;
		const fetching = notes.fetch(['a.md', 'gone.md', 'b.md', 'big.md']).then(() => (done = true));
		expect(asked).toEqual([['a.md', 'b.md', 'big.md']]); // gone.md is not a note any more: not asked for
		notes.receive([posted('a.md', 'alpha'), posted('big.md', null, 'too large')]);
		await Promise.resolve();
		expect(done).toBe(false); // b.md has not come yet
		notes.receive([posted('b.md', 'beta')]);
		await fetching;
		expect(notes.getSkipReason('big.md')).toBe('too large');
		expect(await notes.read('a.md')).toBe('alpha');
		expect(await notes.read('b.md')).toBe('beta');
		await expect(notes.read('big.md')).rejects.toThrow('gone');
		expect(asked).toHaveLength(1);
		await notes.fetch(['a.md', 'b.md']); // here already: nothing asked
		expect(asked).toHaveLength(1);
	});

	it('refuses a second fetch while one waits', async () => {
		const { notes } = notesOver(['a.md', 'b.md']);
		void notes.fetch(['a.md']);
		await expect(notes.fetch(['b.md'])).rejects.toThrow('a fetch is already waiting');
	});
});
