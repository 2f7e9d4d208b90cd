/**
 * The trigram part read in place: where the part's bytes are a file, the loaded index reads a
 * key's postings when a query asks for them and holds none (at 50k notes the postings were ~65 MB
 * of the background server's memory at rest). Its answers, a save of it after changes, and a
 * damaged block found at load are those of the index read whole.
 */
import { describe, expect, it } from 'vitest';
import { SnapshotFormatError } from '../../src/core/snapshot/codec';
import { decodePart, encodePart, memoryPart } from '../../src/core/snapshot/part-codec';
import type { SnapshotReader } from '../../src/core/snapshot/port';
import { restoreTrigrams, trigramSections } from '../../src/core/snapshot/trigram-part';
import { TrigramIndex } from '../../src/core/text/trigram';
import { literalQuery, phraseQuery } from '../../src/core/text/trigram-query';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';

const host = nodeCodecHost;
const WORDS = ['obsidian', 'vault', 'kelly', 'sync', 'graph', 'trigram', 'nebula', 'quartz'];

/** An index of `notes` notes, each holding a few of WORDS (and a common word in most). */
function built(notes: number): TrigramIndex {
	const index = new TrigramIndex();
	for (let i = 0; i < notes; i++) {
		const words = WORDS.filter((_, w) => (i * 7 + w * 13) % (w + 2) === 0);
		words.push(`own${(i * 7919).toString(36)}`); // keys of its own: the postings grow past a few blocks
		index.upsert(
			`folder ${i % 9}/note ${i}.md`,
			`# Note ${i}\n\n${words.join(' ')} and ${i % 3 ? 'common' : ''}\n`,
		);
	}
	return index;
}

/** The index's part as bytes, read through a reader that counts the bytes asked of it. */
function savedPart(index: TrigramIndex): { bytes: Uint8Array; reader: SnapshotReader; read: () => number } {
	const stamps = new Map(
		[...Array(3).keys()].map((i) => [`n${i}.md`, { size: i, mtimeMs: 1, ctimeMs: 1, ino: i, racy: false }]),
	);
	const bytes = encodePart(
		{ kind: 'trigrams', tool: 't', settings: 's', stamps, sections: trigramSections(index, host) },
		host,
	);
	let read = 0;
	const inner = memoryPart(bytes);
	const reader: SnapshotReader = {
		size: inner.size,
		read: (offset, length) => {
			read += length;
			return inner.read(offset, length).slice(); // a copy, as a file's read is
		},
	};
	return { bytes, reader, read: () => read };
}

/** The index restored from `reader`: postings read a range at a time, or whole. */
function restored(reader: SnapshotReader, ranges: boolean): TrigramIndex {
	const part = decodePart(reader, host);
	return restoreTrigrams((name) => part.section(name), host, ranges ? (name) => part.rangeReader(name) : undefined);
}

/** Whether two byte arrays are equal (toEqual compares large arrays element by element, slowly). */
const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0;

const QUERIES = [...WORDS, 'common', 'and', 'zzz'].map(literalQuery).concat([phraseQuery('obsidian vault')]);

describe('the trigram part read in place', () => {
	it('answers as the index read whole, reading a few blocks per query and holding none', () => {
		const index = built(12_000);
		const saved = savedPart(index);
		const postings = index.columns().postings.length;
		expect(postings).toBeGreaterThan(64 * 1024); // more than a few blocks: reading them all would show
		const whole = restored(memoryPart(saved.bytes), false);
		const lazy = restored(saved.reader, true);
		const atLoad = saved.read();
		expect(atLoad).toBeGreaterThan(postings); // every block checked once at load
		for (const query of QUERIES) {
			const before = saved.read();
			const candidates = lazy.candidates(query);
			// A literal's few keys, each a block or two: far less than the postings.
			expect(saved.read() - before).toBeLessThan(postings / 2);
			expect(candidates).toEqual(whole.candidates(query));
			expect(candidates).toEqual(index.candidates(query));
		}
		// Nothing read at a query is kept: asking again reads again.
		const again = saved.read();
		lazy.candidates(literalQuery('obsidian'));
		expect(saved.read()).toBeGreaterThan(again);
	});

	it('saves the same part as the index read whole, changed or not', () => {
		const index = built(3000);
		const saved = savedPart(index);
		const whole = restored(memoryPart(saved.bytes), false);
		const lazy = restored(saved.reader, true);
		expect(same(lazy.serialize(), whole.serialize())).toBe(true);
		for (const i of [4, 40, 400]) {
			for (const changed of [whole, lazy]) {
				changed.upsert(`folder ${i % 9}/note ${i}.md`, 'quartz nebula, rewritten');
				changed.remove(`folder 1/note ${i * 3 + 1}.md`);
				changed.upsert('new/one more.md', `obsidian ${i}`);
			}
		}
		expect(same(lazy.serialize(), whole.serialize())).toBe(true);
		const again = savedPart(lazy);
		expect(same(again.bytes, savedPart(whole).bytes)).toBe(true);
		for (const query of QUERIES) expect(lazy.candidates(query)).toEqual(whole.candidates(query));
	});

	it('finds a damaged postings block when it loads, as a whole read does', () => {
		const saved = savedPart(built(3000));
		const part = decodePart(memoryPart(saved.bytes), host);
		const [from, to] = part.span('trigramPostings');
		const damaged = saved.bytes.slice();
		damaged[Math.floor((from + to) / 2)]! ^= 0xff;
		expect(() => restored(memoryPart(damaged), true)).toThrow(SnapshotFormatError);
		expect(() => restored(memoryPart(damaged), false)).toThrow(SnapshotFormatError);
	});
});
