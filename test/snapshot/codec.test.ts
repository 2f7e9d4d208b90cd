import { describe, expect, it } from 'vitest';
import {
	CarriedNote,
	decodeSnapshot,
	decodeSnapshotFrom,
	encodeSnapshot,
	peekSnapshotHeader,
	SnapshotFormatError,
	type SnapshotInput,
} from '../../src/core/snapshot/codec';
import type { CachedMetadata } from '../../src/core/metadata';
import { getAllTags } from '../../src/core/obsidian-rules';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';
import { parseNote } from '../../src/node/parser/index';
import { openVault } from '../../src/node/vault-source';
import { EXAMPLE_VAULT } from '../helpers/paths';

const fp = { size: 10, mtimeMs: 1.5, ctimeMs: 2.25, ino: 7, racy: false };

/** A snapshot of the example vault, as the CLI would save it. */
async function exampleInput(): Promise<{ input: SnapshotInput; metadata: Map<string, CachedMetadata | null> }> {
	const vault = await openVault(EXAMPLE_VAULT);
	const metadata = new Map(vault.listNotes().map((p) => [p, vault.getMetadata(p)]));
	const input: SnapshotInput = {
		header: {
			tool: 't',
			settings: 's',
			vaultPath: EXAMPLE_VAULT,
			savedAt: 1,
			userIgnoreFilters: ['x/'],
			markdownBytes: 123,
		},
		files: vault.listFiles(),
		notes: vault.listNotes().map((path) => ({
			path,
			fingerprint: fp,
			metadata: vault.getMetadata(path),
			frontmatterError: vault.getFrontmatterError(path),
			skipReason: vault.getSkipReason(path),
		})),
		resolvedLinks: vault.resolvedLinks(),
		unresolvedLinks: vault.unresolvedLinks(),
	};
	return { input, metadata };
}

/** Re-parses a note for the deferred fields, as the Node face does. */
const noDeferred = (): unknown => {
	throw new Error('deferred field read');
};

describe('snapshot codec', () => {
	it("gives back every note's metadata, printed identically, and both link maps", async () => {
		const { input, metadata } = await exampleInput();
		const decoded = decodeSnapshot(encodeSnapshot(input, nodeCodecHost), nodeCodecHost);
		expect(decoded.notePaths).toEqual(input.notes.map((n) => n.path));
		expect(decoded.files).toEqual(input.files);
		decoded.notePaths.forEach((path, i) => {
			const original = metadata.get(path) ?? null;
			const back = decoded.metadata(i, (field) => (original as Record<string, unknown> | null)?.[field]);
			expect(JSON.stringify(back)).toBe(JSON.stringify(original));
			expect(decoded.fingerprint(i)).toEqual(fp);
			expect(decoded.resolvedOf(i)).toEqual(original ? input.resolvedLinks[path] : {});
		});
		const misses = decoded.unresolvedByNote();
		decoded.notePaths.forEach((path, i) => {
			if (decoded.indexed(i)) expect(misses.get(i) ?? {}).toEqual(input.unresolvedLinks[path]);
		});
		expect(peekSnapshotHeader(encodeSnapshot(input, nodeCodecHost), nodeCodecHost)).toMatchObject({
			notes: input.notes.length,
			userIgnoreFilters: ['x/'],
		});
	});

	it('reads only the fields a query asks for; layout fields come from the callback', async () => {
		const { input } = await exampleInput();
		const decoded = decodeSnapshot(encodeSnapshot(input, nodeCodecHost), nodeCodecHost);
		const i = decoded.notePaths.indexOf('conventions.md');
		const meta = decoded.metadata(i, noDeferred);
		expect(meta?.frontmatter).toBeTypeOf('object');
		expect(() => meta?.sections).toThrow('deferred field read');
	});

	it('keeps numbers JSON would lose, unknown fields, and a __proto__ key', () => {
		const frontmatter = JSON.parse(
			'{"__proto__": {"a": 1}, "inf": 0, "nan": 0, "neg": 0, "list": [1, 2]}',
		) as Record<string, unknown>;
		frontmatter.inf = -Infinity;
		frontmatter.nan = NaN;
		frontmatter.neg = -0;
		const metadata = { frontmatter, footnotes: [{ id: 'x' }] } as unknown as CachedMetadata;
		const input: SnapshotInput = {
			header: { tool: 't', settings: 's', vaultPath: '/v', savedAt: 1, userIgnoreFilters: [], markdownBytes: 0 },
			files: ['a.md'],
			notes: [{ path: 'a.md', fingerprint: fp, metadata, frontmatterError: null, skipReason: null }],
			resolvedLinks: { 'a.md': {} },
			unresolvedLinks: { 'a.md': {} },
		};
		const back = decodeSnapshot(encodeSnapshot(input, nodeCodecHost), nodeCodecHost).metadata(
			0,
			noDeferred,
		) as unknown as Record<string, Record<string, unknown>>;
		expect(Object.is(back.frontmatter!.neg, -0)).toBe(true);
		expect(back.frontmatter!.inf).toBe(-Infinity);
		expect(back.frontmatter!.nan).toBeNaN();
		expect(Object.getOwnPropertyDescriptor(back.frontmatter, '__proto__')?.value).toEqual({ a: 1 });
		expect(back.footnotes).toEqual([{ id: 'x' }]);
		expect(Object.keys(JSON.parse(JSON.stringify(back)) as object)).toEqual(['frontmatter', 'footnotes']);
	});

	it('carries a kept note into the next snapshot without decoding it', () => {
		const text = '---\ntags: [a]\n---\n# T\n\n- item [[b]]\n';
		const { metadata } = parseNote(text);
		const input: SnapshotInput = {
			header: { tool: 't', settings: 's', vaultPath: '/v', savedAt: 1, userIgnoreFilters: [], markdownBytes: 0 },
			files: ['a.md', 'b.md'],
			notes: [
				{ path: 'a.md', fingerprint: fp, metadata, frontmatterError: null, skipReason: null },
				{ path: 'b.md', fingerprint: fp, metadata: null, frontmatterError: null, skipReason: 'binary content' },
			],
			resolvedLinks: { 'a.md': { 'b.md': 1 } },
			unresolvedLinks: { 'a.md': {} },
		};
		const first = decodeSnapshot(encodeSnapshot(input, nodeCodecHost), nodeCodecHost);
		const carried = {
			...input,
			notes: [
				{ ...input.notes[1]!, path: 'b.md' },
				{ ...input.notes[0]!, metadata: first.encodedMetadata(0) },
			],
		};
		const second = decodeSnapshot(encodeSnapshot(carried, nodeCodecHost), nodeCodecHost);
		expect(second.indexed(0)).toBe(false);
		expect(second.problems(0)).toEqual([null, 'binary content']);
		expect(JSON.stringify(second.metadata(1, (f) => (metadata as Record<string, unknown>)[f]))).toBe(
			JSON.stringify(metadata),
		);
		expect(second.resolvedOf(1)).toEqual({ 'b.md': 1 });
	});

	it('carries the saved heaps whole when one note changes, appends its fields, and writes them afresh once a quarter is garbage', async () => {
		const { input, metadata } = await exampleInput();
		const first = decodeSnapshot(encodeSnapshot(input, nodeCodecHost), nodeCodecHost);
		const changed = input.notes.findIndex(
			(n) => n.metadata !== null && (n.metadata as CachedMetadata).links?.length,
		);
		const edited = parseNote('---\nstatus: new\ntags: [fresh]\n---\n# New\n\n[[conventions]] #inline\n').metadata;
		const carry = first.carried(0.25)!;
		expect(carry).not.toBeNull();
		const notes = input.notes.map((note, i) =>
			i === changed
				? { ...note, metadata: edited }
				: { ...note, metadata: note.metadata === null ? null : new CarriedNote(i) },
		);
		const bytes = encodeSnapshot({ ...input, notes, carry }, nodeCodecHost);
		const second = decodeSnapshot(bytes, nodeCodecHost);
		second.notePaths.forEach((path, i) => {
			const expected = i === changed ? edited : (metadata.get(path) ?? null);
			expect(
				JSON.stringify(second.metadata(i, (field) => (expected as Record<string, unknown> | null)?.[field])),
			).toBe(JSON.stringify(expected));
			expect(second.allTags(i)).toEqual(expected === null ? null : getAllTags(expected));
			expect(second.lacksKey(i, 'status')).toBe(!Object.hasOwn(expected?.frontmatter ?? {}, 'status'));
		});
		// The changed note's old fields stay behind as garbage; more than a quarter of it makes the next save write the heaps afresh.
		expect(second.header.garbageBytes).toBeGreaterThan(0);
		expect(second.header.heapBytes).toBeGreaterThan(first.header.heapBytes!);
		expect(second.carried(1)).not.toBeNull();
		expect(second.carried(second.header.garbageBytes! / second.header.heapBytes! / 2)).toBeNull();
	});

	it('takes a field whose bytes fail their check from the callback, and only that field', async () => {
		const { input, metadata } = await exampleInput();
		const bytes = encodeSnapshot(input, nodeCodecHost);
		const at = Buffer.from(bytes).lastIndexOf('"status":"on-hold"');
		expect(at).toBeGreaterThan(0);
		bytes[at + '"status":"on-hol'.length]! ^= 0x08; // still valid JSON: on-hold → on-holl
		const decoded = decodeSnapshot(bytes, nodeCodecHost);
		const damaged: string[] = [];
		decoded.notePaths.forEach((path, i) => {
			const original = metadata.get(path) as Record<string, unknown> | null;
			const back = decoded.metadata(i, (field, broken) => {
				if (broken) damaged.push(`${path} ${field}`);
				return original?.[field];
			});
			expect(JSON.stringify(back)).toBe(JSON.stringify(original));
		});
		expect(damaged).toEqual([
			`${decoded.notePaths.find((p) => metadata.get(p)?.frontmatter?.status === 'on-hold')} frontmatter`,
		]);
	});

	it('tells from the saved key and tag lists which notes have a property and what tags each has', async () => {
		const { input, metadata } = await exampleInput();
		const decoded = decodeSnapshot(encodeSnapshot(input, nodeCodecHost), nodeCodecHost);
		for (const key of ['status', 'tags', 'links', '__proto__', 'no such key']) {
			decoded.notePaths.forEach((path, i) => {
				const has = Object.hasOwn(metadata.get(path)?.frontmatter ?? {}, key);
				expect(decoded.lacksKey(i, key), `${path} ${key}`).toBe(!has);
			});
		}
		decoded.notePaths.forEach((path, i) => {
			const meta = metadata.get(path) ?? null;
			expect(decoded.allTags(i)).toEqual(meta === null ? null : getAllTags(meta));
			expect(decoded.keysOf(i)).toEqual(meta === null ? null : Object.keys(meta.frontmatter ?? {}));
		});
		expect(decoded.notePaths.some((_, i) => (decoded.allTags(i) ?? []).length > 0)).toBe(true);
	});

	it('reads the columns and the frontmatter heap whole, and body links only for the notes asked about', async () => {
		const { input, metadata } = await exampleInput();
		const bytes = encodeSnapshot(input, nodeCodecHost);
		let read = 0;
		const decoded = decodeSnapshotFrom(
			{ size: bytes.length, read: (offset, length) => ((read += length), bytes.slice(offset, offset + length)) },
			nodeCodecHost,
		);
		decoded.notePaths.forEach((path, i) =>
			expect(JSON.stringify(decoded.metadata(i, noDeferred)?.frontmatter)).toBe(
				JSON.stringify(metadata.get(path)?.frontmatter),
			),
		);
		const columnsAndFrontmatter = read;
		const i = decoded.notePaths.findIndex((path) => (metadata.get(path)?.links?.length ?? 0) > 1);
		const links = metadata.get(decoded.notePaths[i]!)?.links;
		expect(JSON.stringify(decoded.metadata(i, noDeferred)?.links)).toBe(JSON.stringify(links));
		// One field's bytes (positions flattened: shorter than their JSON), not the heap of every note's body links.
		expect(read - columnsAndFrontmatter).toBeGreaterThan(0);
		expect(read - columnsAndFrontmatter).toBeLessThan(JSON.stringify(links).length);
		expect(read).toBeLessThan(bytes.length);
	});

	it('a lean reader (the MCP server) reads body links a field at a time however many it reads, and lets go of a heap a save read whole', async () => {
		const { input, metadata } = await exampleInput();
		const bytes = encodeSnapshot(input, nodeCodecHost);
		const open = (lean: boolean) => {
			const reads: number[] = [];
			const decoded = decodeSnapshotFrom(
				{
					size: bytes.length,
					read: (offset, length) => (reads.push(length), bytes.slice(offset, offset + length)),
				},
				nodeCodecHost,
				{ lean },
			);
			// What opening read (preamble, header, columns) is the same for both; the rest is what queries read.
			reads.length = 0;
			return { decoded, reads };
		};
		const readAllLinks = (decoded: ReturnType<typeof open>['decoded']) => {
			// More field reads than the one-shot threshold (500), as a server answering many calls makes.
			for (let round = 0; round < 60; round++) {
				decoded.notePaths.forEach((path, i) =>
					expect(JSON.stringify(decoded.metadata(i, noDeferred)?.links)).toBe(
						JSON.stringify(metadata.get(path)?.links),
					),
				);
			}
		};
		const oneShot = open(false);
		readAllLinks(oneShot.decoded);
		const lean = open(true);
		readAllLinks(lean.decoded);
		const largest = (reads: number[]) => Math.max(...reads);
		// Past 500 fields the one-shot reader reads the body-links heap whole; the lean one reads
		// fields and the small frontmatter heap only, however many calls ask.
		expect(oneShot.reads.length).toBeLessThan(lean.reads.length);
		expect(largest(lean.reads)).toBeLessThan(largest(oneShot.reads));
		const before = lean.reads.length;
		lean.decoded.encodedMetadata(0);
		lean.decoded.afterSave();
		const afterSave = lean.reads.length;
		expect(afterSave).toBeGreaterThan(before);
		readAllLinks(lean.decoded);
		expect(lean.reads.length).toBeGreaterThan(afterSave);
	});

	it('takes a body-links field whose bytes fail their check from the callback, reading field by field', async () => {
		const { input, metadata } = await exampleInput();
		const bytes = encodeSnapshot(input, nodeCodecHost);
		const i = input.notes.findIndex((n) => (n.metadata as CachedMetadata | null)?.links?.length);
		const link = (metadata.get(input.notes[i]!.path)?.links ?? [])[0]!.link;
		const at = Buffer.from(bytes).indexOf(`"link":${JSON.stringify(link)}`);
		expect(at).toBeGreaterThan(0);
		bytes[at + 1]! ^= 0x20; // "link" → "Link": still JSON, another key
		const decoded = decodeSnapshotFrom(
			{ size: bytes.length, read: (offset, length) => bytes.slice(offset, offset + length) },
			nodeCodecHost,
		);
		const damaged: string[] = [];
		const back = decoded.metadata(
			decoded.notePaths.indexOf(
				input.notes.find((n) =>
					JSON.stringify((n.metadata as CachedMetadata | null)?.links ?? []).includes(
						`"link":${JSON.stringify(link)}`,
					),
				)!.path,
			),
			(field, broken) => {
				if (broken) damaged.push(field);
				return (metadata.get(input.notes[i]!.path) as Record<string, unknown> | null)?.[field];
			},
		);
		expect(back?.links?.length).toBeGreaterThan(0);
		expect(damaged).toEqual(['links']);
	});

	it('refuses truncated, damaged and foreign bytes with a reason', async () => {
		const { input } = await exampleInput();
		const bytes = encodeSnapshot(input, nodeCodecHost);
		const reason = (b: Uint8Array): string => {
			try {
				decodeSnapshot(b, nodeCodecHost);
				return 'accepted';
			} catch (error) {
				expect(error).toBeInstanceOf(SnapshotFormatError);
				return (error as Error).message;
			}
		};
		expect(reason(bytes.slice(0, bytes.length - 100))).toMatch(/truncated/);
		expect(reason(bytes.slice(0, 10))).toMatch(/truncated/);
		const flipped = bytes.slice();
		flipped[Buffer.from(bytes).indexOf('conventions.md') + 3]! ^= 0x20; // the file list: verified whole on every load
		expect(reason(flipped)).toMatch(/checksum/);
		const foreign = bytes.slice();
		new DataView(foreign.buffer).setUint32(4, 999, true);
		expect(reason(foreign)).toMatch(/format version 999/);
		expect(reason(new TextEncoder().encode('{"not": "a snapshot"}'))).toMatch(/not a vault-query snapshot/);
		expect(reason(bytes)).toBe('accepted');
	});
});
