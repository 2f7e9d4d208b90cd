/**
 * A server's refresh after writes to existing notes patches the previous open instead of opening
 * the vault again (src/node/snapshot/patch-cached.ts). Random sequences of writes — links that
 * resolve and do not, tags, frontmatter, a note turned binary and back, an oversized note — are
 * applied, and after each the patched source must say what a full read of the vault says: notes,
 * metadata, tags, skip reasons, mtimes and both link maps and their inversion. A created, deleted
 * or renamed note, a folder or a config file is not a patch (null: the caller opens in full).
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { getAllTags } from '../../src/core/obsidian-rules';
import type { NoteSource } from '../../src/core/port';
import { FileSnapshotStore } from '../../src/node/snapshot/file-store';
import { openCachedVault, type CachedVault } from '../../src/node/snapshot/open-cached';
import { patchCachedVault } from '../../src/node/snapshot/patch-cached';
import { openVault } from '../../src/node/vault-source';

const NAMES = ['a.md', 'b.md', 'sub/c.md', 'sub/d.md'];
const MAX_FILE_SIZE = 4000;
const made: string[] = [];

function tempDir(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	made.push(dir);
	return dir;
}

afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A vault with the four notes and an attachment. */
function makeVault(): string {
	const root = tempDir('vq-patch-vault-');
	mkdirSync(join(root, '.obsidian'));
	mkdirSync(join(root, 'sub'));
	writeFileSync(join(root, 'pic.png'), 'png');
	for (const name of NAMES) writeFileSync(join(root, name), `# ${name}\n\n[[a]] #start\n`);
	return root;
}

/** Everything a query reads from a source, as one comparable value (tags and linkers worked out when the source has no shortcut for them). */
function observe(source: NoteSource): unknown {
	const notes = source.listNotes();
	const resolved = source.resolvedLinks();
	const unresolved = source.unresolvedLinks();
	const linkersOf = (target: string): readonly string[] =>
		source.linkSourcesOf?.(target) ??
		notes.filter((path) => resolved[path] !== undefined && Object.hasOwn(resolved[path], target));
	const tagsOf = (path: string): readonly string[] | null => {
		if (source.allTags) return source.allTags(path);
		const meta = source.getMetadata(path);
		return meta === null ? null : getAllTags(meta);
	};
	return {
		notes,
		files: source.listFiles(),
		perNote: notes.map((path) => ({
			path,
			metadata: JSON.stringify(source.getMetadata(path)),
			tags: tagsOf(path),
			skip: source.getSkipReason(path),
			yaml: source.getFrontmatterError(path),
			mtime: source.getMtime(path),
			resolved: { ...resolved[path] },
			unresolved: { ...unresolved[path] },
			linkers: linkersOf(path),
		})),
		resolvedKeys: Object.keys(resolved),
		attachmentLinkers: linkersOf('pic.png'),
	};
}

const text = fc
	.record({
		links: fc.array(fc.constantFrom('a', 'b', 'c', 'sub/d', 'pic.png', 'missing'), { maxLength: 3 }),
		tags: fc.subarray(['#x', '#y/z']),
		up: fc.option(fc.constantFrom('a', 'missing'), { nil: undefined }),
		kind: fc.constantFrom('plain', 'plain', 'plain', 'binary', 'huge', 'bad-yaml'),
	})
	.map((r) => {
		if (r.kind === 'binary') return Buffer.from([0, 1, 2, 0, 255]);
		if (r.kind === 'huge') return 'x'.repeat(MAX_FILE_SIZE + 10);
		const front =
			r.kind === 'bad-yaml' ? '---\nkey: [unclosed\n---\n' : r.up ? `---\nup: "[[${r.up}]]"\n---\n` : '';
		return `${front}# Note\n\nsome words ${r.tags.join(' ')}\n\n${r.links.map((l) => `[[${l}]]`).join(' ')}\n`;
	});

describe('patching an open vault after writes to its notes', () => {
	it('says what a full read says, after every random sequence of writes', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(
					fc.array(fc.record({ name: fc.constantFrom(...NAMES), text }), { minLength: 1, maxLength: 3 }),
					{ minLength: 1, maxLength: 5 },
				),
				async (bursts) => {
					const root = makeVault();
					const options = { maxFileSize: MAX_FILE_SIZE };
					const store = new FileSnapshotStore(tempDir('vq-patch-cache-'));
					await openCachedVault(root, { ...options, store, tool: 'test', racyWindowMs: 0 });
					// Opened as a server opens it: from the saved snapshot, read piecemeal.
					let opened: CachedVault = await openCachedVault(root, {
						...options,
						store,
						tool: 'test',
						readPiecemeal: true,
						lean: true,
						racyWindowMs: 0,
					});
					expect(opened.report.state).toBe('warm');
					for (const burst of bursts) {
						for (const { name, text: body } of burst) writeFileSync(join(root, name), body);
						const patched = patchCachedVault(
							opened,
							burst.map((w) => w.name),
							options,
						);
						expect(patched).not.toBeNull();
						opened = patched!;
						expect(observe(opened.source)).toEqual(observe(await openVault(root, options)));
					}
				},
			),
			{ numRuns: 25 },
		);
	});

	it('is not a patch when a note was created, deleted or renamed, or a folder or config file changed', async () => {
		const root = makeVault();
		const store = new FileSnapshotStore(tempDir('vq-patch-cache-'));
		const opened = await openCachedVault(root, { store, tool: 'test' });
		writeFileSync(join(root, 'new.md'), 'new');
		expect(patchCachedVault(opened, ['new.md'])).toBeNull();
		rmSync(join(root, 'b.md'));
		expect(patchCachedVault(opened, ['b.md'])).toBeNull();
		renameSync(join(root, 'sub/c.md'), join(root, 'sub/e.md'));
		expect(patchCachedVault(opened, ['sub/c.md', 'sub/e.md'])).toBeNull();
		expect(patchCachedVault(opened, ['sub'])).toBeNull();
		expect(patchCachedVault(opened, [''])).toBeNull();
		expect(patchCachedVault(opened, ['.obsidian/app.json'])).toBeNull();
		expect(patchCachedVault(opened, ['pic.png'])).toBeNull();
		// A write to a note that is still there is one.
		writeFileSync(join(root, 'a.md'), '[[new]]');
		const patched = patchCachedVault(opened, ['a.md']);
		expect(patched?.report).toMatchObject({ state: 'refreshed', reread: 1, removed: 0 });
		expect(patched?.source.resolvedLinks()['a.md']).toEqual({});
	});
});
