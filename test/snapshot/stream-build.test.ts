/**
 * A start from scratch that encodes each note into the snapshot as it is parsed (`streamSave`)
 * saves the very bytes a read of every note followed by one save writes, holds no note's parsed
 * metadata beyond the few it is reading (counted with weak references after full collections),
 * answers as a plain read does, and says why when it cannot save.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import type { StructuredQuery } from '../../src/core/query/types';
import { encodeSnapshotChunks, type SnapshotInput } from '../../src/core/snapshot/codec';
import { SnapshotEncoder } from '../../src/core/snapshot/encoder';
import { concatBytes } from '../../src/core/snapshot/bytes';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';
import { FileSnapshotStore } from '../../src/node/snapshot/file-store';
import { openCachedVault, type OpenCachedOptions } from '../../src/node/snapshot/open-cached';
import { parseNote } from '../../src/node/parser/index';
import { openVault } from '../../src/node/vault-source';

/** Notes between two progress reports of a read (read-notes.ts): the read yields there. */
const PROGRESS_EVERY = 256;
const NOTES = 4 * PROGRESS_EVERY;
const SAVED_AT = 1_700_000_000_000;

const work = mkdtempSync(join(tmpdir(), 'vq-stream-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A vault whose notes have frontmatter, tags, resolved, unresolved and attachment links, one bad frontmatter, one too large. */
function makeVault(name: string, notes: number): string {
	const root = join(work, name);
	mkdirSync(join(root, '.obsidian'), { recursive: true });
	mkdirSync(join(root, 'f'), { recursive: true });
	writeFileSync(join(root, 'pic.png'), 'png');
	for (let i = 0; i < notes; i++) {
		const next = `n${(i + 1) % notes}`;
		writeFileSync(
			join(root, i % 5 === 0 ? 'f' : '', `n${i}.md`),
			`---\ntitle: Note ${i}\ntags: [t${i % 3}, long-tag-name-${i % 7}]\nup: "[[${next}]]"\n---\n# A heading long enough to be sliced ${i}\n\nwords [[${next}]] [[missing ${i % 4}]] ![[pic.png]] #body/t${i % 2}\n\n- item ${i}\n`,
		);
	}
	writeFileSync(join(root, 'bad.md'), '---\ntitle: [unclosed\n---\nbody\n');
	writeFileSync(join(root, 'big.md'), `# Big\n\n${'x'.repeat(5000)}\n`);
	return root;
}

/** The options of both opens: the same clock, so their headers and racy flags agree. */
function optionsIn(cache: string): OpenCachedOptions {
	return { maxFileSize: 4096, store: new FileSnapshotStore(join(work, cache)), tool: 'test', now: () => SAVED_AT };
}

/** The saved snapshot's bytes. */
function savedBytes(options: OpenCachedOptions, real: string): Buffer {
	return readFileSync((options.store as FileSnapshotStore).pathFor(real));
}

/** A full collection, in this process (tests do not run with --expose-gc). */
function collect(): void {
	setFlagsFromString('--expose-gc');
	(runInNewContext('gc') as () => void)();
}

/**
 * Opens `root` with `options` through a parser that keeps a weak reference to each note's parsed
 * metadata; at each progress report (the read's yields, every PROGRESS_EVERY notes) it collects
 * and counts the parsed metadata still alive. Returns the largest count.
 */
async function mostAlive(root: string, options: OpenCachedOptions): Promise<{ alive: number; parsed: number }> {
	const refs: WeakRef<object>[] = [];
	let alive = 0;
	const parse: typeof parseNote = (text) => {
		const result = parseNote(text);
		refs.push(new WeakRef(result.metadata));
		return result;
	};
	const progress = (): void => {
		collect();
		alive = Math.max(alive, refs.filter((r) => r.deref() !== undefined).length);
	};
	await openCachedVault(root, { ...options, parse, progress, readPiecemeal: true, lean: true, keepTexts: false });
	return { alive, parsed: refs.length };
}

const QUERIES: StructuredQuery[] = [
	{ type: 'backlinks', target: 'n0' },
	{ type: 'tag', tag: 'body/t1' },
	{ type: 'grep', pattern: 'heading long', limit: 100000 },
	{ type: 'prop', key: 'title' },
];

describe('a start from scratch that encodes each note as it is parsed', () => {
	const root = makeVault('vault', NOTES);

	it('saves the same bytes as a read of every note followed by one save', async () => {
		const whole = optionsIn('whole');
		const read = await openCachedVault(root, { ...whole, keepTexts: false });
		expect(read.report.state).toBe('built');
		const streamed = optionsIn('streamed');
		const opened = await openCachedVault(root, { ...streamed, streamSave: true, readPiecemeal: true, lean: true });
		expect(opened.report).toMatchObject({ state: 'built', saveError: null, notes: read.report.notes });
		expect(opened.report.savedBytes).toBe(read.report.savedBytes);
		expect(opened.changed).toEqual([]);
		expect(savedBytes(streamed, read.key).equals(savedBytes(whole, read.key))).toBe(true);
	});

	it('answers every query as a plain read does', async () => {
		const opened = await openCachedVault(root, {
			...optionsIn('answers'),
			streamSave: true,
			readPiecemeal: true,
			lean: true,
		});
		const cached = new VaultEngine(opened.source);
		const plain = new VaultEngine(await openVault(root, { maxFileSize: 4096 }));
		for (const query of QUERIES)
			expect(await cached.query(query, { reuseGraph: true }), JSON.stringify(query)).toEqual(
				await plain.query(query, { reuseGraph: true }),
			);
	});

	it("holds no more than one read step's parsed notes at once, where a read then save holds them all", async () => {
		const streamed = await mostAlive(root, { ...optionsIn('alive-streamed'), streamSave: true });
		const whole = await mostAlive(root, { ...optionsIn('alive-whole'), save: true });
		expect(streamed.parsed).toBeGreaterThan(NOTES);
		// The notes parsed since the last yield are alive in both (their references were made in this turn).
		expect(streamed.alive).toBeLessThanOrEqual(PROGRESS_EVERY + 1);
		expect(whole.alive).toBeGreaterThanOrEqual(NOTES - PROGRESS_EVERY);
	});

	it('reads the vault again and says why when the snapshot cannot be saved', async () => {
		const blocked = join(work, 'blocked');
		writeFileSync(blocked, 'a file where the cache folder should be');
		const options = { ...optionsIn('unused'), store: new FileSnapshotStore(join(blocked, 'cache')) };
		const opened = await openCachedVault(root, { ...options, streamSave: true });
		expect(opened.report.saveError).not.toBeNull();
		expect(opened.source.listNotes().length).toBe(NOTES + 2);
		const backlinks = await new VaultEngine(opened.source).query({ type: 'backlinks', target: 'n0' });
		expect(JSON.stringify(backlinks)).toContain(`n${NOTES - 1}.md`);
	});
});

describe('the snapshot encoder in small heap chunks', () => {
	it('writes the bytes of one growing buffer, whatever the chunk size', () => {
		const notes = Array.from({ length: 40 }, (_, i) => {
			const { metadata } = parseNote(`---\nk: ${'v'.repeat(i * 7)}\n---\n# H ${i}\n[[n${i + 1}]] #t${i % 3}\n`);
			return {
				path: `n${i}.md`,
				fingerprint: { size: 10 + i, mtimeMs: i, ctimeMs: i, ino: i, racy: false },
				metadata,
				frontmatterError: null,
				skipReason: null,
			};
		});
		const files = notes.map((n) => n.path);
		const header = {
			tool: 't',
			settings: 's',
			vaultPath: '/v',
			savedAt: 1,
			userIgnoreFilters: [],
			markdownBytes: 1000,
		};
		const input: SnapshotInput = { header, files, notes, resolvedLinks: {}, unresolvedLinks: {} };
		const whole = concatBytes(encodeSnapshotChunks(input, nodeCodecHost));
		for (const chunkBytes of [16, 64, 1000]) {
			const encoder = new SnapshotEncoder({ files, notes: notes.length, chunkBytes }, nodeCodecHost);
			for (const note of notes) encoder.add(note);
			const chunks = encoder.finish(header);
			expect(Buffer.from(concatBytes(chunks)).equals(Buffer.from(whole)), `chunks of ${chunkBytes}`).toBe(true);
		}
	});
});
