/**
 * A server's refresh after changes to plain files patches the previous open instead of opening
 * the vault again (src/node/snapshot/patch-cached.ts). Random sequences of writes — links that
 * resolve and do not, tags, frontmatter, a note turned binary and back, an oversized note — and of
 * notes and attachments created, deleted and renamed (names that resolve links left unresolved,
 * or move a short link to a nearer note) are applied, and after each the patched source must say
 * what a full read of the vault says: notes, metadata, tags, skip reasons, mtimes and both link
 * maps and their inversion; so must a call that opens through the snapshot saved before them. A folder
 * or a config file is not a patch (null: the caller opens in full).
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
import { applyFileChanges, fileChange } from '../helpers/file-changes';

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
		links: fc.array(fc.constantFrom('a', 'b', 'c', 'sub/d', 'pic.png', 'missing', 'e', 'sub/e', 'f.md'), {
			maxLength: 3,
		}),
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

/** Save a snapshot of `root` in `store`, then open it as a server does: from the saved snapshot, read piecemeal. */
async function openAsServer(
	root: string,
	store: FileSnapshotStore,
	options: { maxFileSize: number },
): Promise<CachedVault> {
	await openCachedVault(root, { ...options, store, tool: 'test', racyWindowMs: 0 });
	return openCachedVault(root, { ...options, store, tool: 'test', readPiecemeal: true, lean: true, racyWindowMs: 0 });
}

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
					let opened = await openAsServer(root, store, options);
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

	it('says what a full read says after notes and attachments are created, deleted and renamed', async () => {
		/** Paths a change may touch: the vault's, names its links look for, and a nearer or farther twin of each. */
		const pool = [
			...NAMES,
			'c.md',
			'sub/a.md',
			'e.md',
			'sub/e.md',
			'f.md',
			'sub/missing.md',
			'pic.png',
			'sub/pic.png',
		];
		const change = fileChange(pool, text);
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
				async (bursts) => {
					const root = makeVault();
					const options = { maxFileSize: MAX_FILE_SIZE };
					const store = new FileSnapshotStore(tempDir('vq-patch-cache-'));
					let opened = await openAsServer(root, store, options);
					for (const burst of bursts) {
						const reported = applyFileChanges(root, burst);
						const patched = patchCachedVault(opened, reported, options);
						expect(patched).not.toBeNull();
						opened = patched!;
						const full = observe(await openVault(root, options));
						expect(observe(opened.source)).toEqual(full);
						// A call without a server: the snapshot saved before these changes, its links kept where no changed name reaches.
						const reopened = await openCachedVault(root, {
							...options,
							store,
							tool: 'test',
							racyWindowMs: 0,
						});
						expect(observe(reopened.source)).toEqual(full);
					}
				},
			),
			{ numRuns: 40 },
		);
	});

	it('is not a patch when a folder or a config file changed', async () => {
		const root = makeVault();
		const store = new FileSnapshotStore(tempDir('vq-patch-cache-'));
		const opened = await openCachedVault(root, { store, tool: 'test' });
		mkdirSync(join(root, 'new'));
		expect(patchCachedVault(opened, ['new'])).toBeNull();
		expect(patchCachedVault(opened, ['sub'])).toBeNull();
		expect(patchCachedVault(opened, [''])).toBeNull();
		expect(patchCachedVault(opened, ['.obsidian/app.json'])).toBeNull();
		renameSync(join(root, 'sub'), join(root, 'moved'));
		expect(patchCachedVault(opened, ['sub', 'moved'])).toBeNull();
		// A note created, or written, is one; a file in a dot-folder changes nothing.
		writeFileSync(join(root, 'a.md'), '[[new]]');
		writeFileSync(join(root, 'new.md'), 'new');
		const patched = patchCachedVault(opened, ['a.md', 'new.md']);
		expect(patched?.report).toMatchObject({ state: 'refreshed', reread: 2, removed: 0 });
		expect(patched?.source.resolvedLinks()['a.md']).toEqual({ 'new.md': 1 });
		mkdirSync(join(root, '.hidden'));
		writeFileSync(join(root, '.hidden/x.md'), 'x');
		expect(patchCachedVault(patched!, ['.hidden/x.md'])?.source.listNotes()).toEqual(patched?.source.listNotes());
	});
});
