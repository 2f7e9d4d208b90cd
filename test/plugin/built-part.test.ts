// @vitest-environment happy-dom
/**
 * The part of the index a worker built leaves it one of two ways (worker-part-out.ts): encoded
 * straight into IndexedDB, its large sections made as the records are put, or encoded whole and
 * sent to the main thread in pieces. Both give the bytes `encodePart` gives for the same index —
 * the format the restore reads — and the pieces arrive a few at a time, then `done`.
 */
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/core/search/search';
import type { NoteFingerprint } from '../../src/core/snapshot/codec';
import { concatBytes } from '../../src/core/snapshot/bytes';
import { encodePart } from '../../src/core/snapshot/part-codec';
import { searchSections } from '../../src/core/snapshot/search-part';
import { browserCodecHost } from '../../src/obsidian/browser-codec';
import { IndexedDbStore } from '../../src/obsidian/idb-store';
import { BuiltPart } from '../../src/obsidian/worker-part-out';
import type { FromIndexWorker } from '../../src/obsidian/worker-protocol';
import { MemorySource } from '../helpers/memory-source';
import '../helpers/indexeddb-env';

const WORDS = ['harbor', 'lantern', 'zebra', 'orbit', 'maple', 'stripes', '港口', 'фонарь'];

/** Three hundred notes in a few scripts: the postings sections are made (filled as they are written), the others held. */
async function builtIndex(): Promise<{ index: SearchIndex; stamps: Map<string, NoteFingerprint> }> {
	const files: Record<string, string> = {};
	const stamps = new Map<string, NoteFingerprint>();
	for (let i = 0; i < 300; i++) {
		const path = `area${i % 5}/note ${i}.md`;
		files[path] =
			`# Note ${i}\n\n${Array.from({ length: 40 }, (_, w) => `${WORDS[(i * 3 + w) % WORDS.length]}${w % 7}`).join(' ')}\n`;
		stamps.set(path, { size: files[path].length, mtimeMs: 1_000 + i, ctimeMs: 1_000, ino: 0, racy: i === 7 });
	}
	return { index: await SearchIndex.build(new MemorySource(files)), stamps };
}

describe('the part a worker built', () => {
	it('is saved into IndexedDB and sent in pieces as the very bytes encodePart gives', async () => {
		const { index, stamps } = await builtIndex();
		const header = { tool: 'test-tool', settings: 'test-settings', stamps };
		const expected = encodePart(
			{ kind: 'search', ...header, sections: searchSections(index, browserCodecHost) },
			browserCodecHost,
		);
		const messages: FromIndexWorker[] = [];
		const part = new BuiltPart(index, header, (message) => messages.push(message), 300, 0, 4096);

		await part.save({ database: 'built-part-test', key: 'vault/search', notes: 300 });
		expect(messages).toEqual([{ type: 'saved', counted: 0 }]);
		const store = new IndexedDbStore('built-part-test');
		expect(await store.load('vault/search')).toEqual(expected);
		expect(await store.info('vault/search')).toMatchObject({ notes: 300, bytes: expected.length });
		store.close();

		messages.length = 0;
		part.send();
		expect(messages.map((m) => m.type)).toEqual(['part', 'part', 'part', 'part']); // a few ahead of `taken`
		while (messages.at(-1)?.type !== 'done') part.taken();
		const pieces = messages.flatMap((m) => (m.type === 'part' ? [m.bytes] : []));
		expect(pieces.every((piece) => piece.length <= 4096)).toBe(true);
		expect(concatBytes(pieces)).toEqual(expected);
		expect(messages.at(-1)).toEqual({ type: 'done', length: expected.length, notes: 300, counted: 0 });
	});
});
