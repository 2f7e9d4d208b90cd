/**
 * NodeVaultSource on a temporary vault built under os.tmpdir() (never in the repository or
 * shared/): skip reasons, BOM, CRLF, malformed YAML, app.json, excluded folders, symlinks, both
 * read modes; then a read-only check on a shared sample vault.
 */
import { createHash } from 'node:crypto';
import {
	chmodSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_DIR, NodeVaultSource, openVault, VaultError } from '../../src/node/vault-source';
import { describeShared, KEPANO_VAULT as KEPANO } from '../helpers/shared';

const MIB = 1024 * 1024;
const CONFIG = DEFAULT_CONFIG_DIR;

/** Writes `content` at `root/rel`, creating folders. */
function put(root: string, rel: string, content: string | Buffer): void {
	const abs = join(root, rel);
	mkdirSync(join(abs, '..'), { recursive: true });
	writeFileSync(abs, content);
}

let base: string;
let vault: string;

beforeAll(() => {
	base = mkdtempSync(join(tmpdir(), 'vq-vault-source-'));
	vault = join(base, 'vault');
	mkdirSync(vault);
	put(vault, 'Note.md', '# Note\n\nSee [[Other]] and ![[pic.png]] and [[Missing.md]].\n');
	put(vault, 'Other.md', 'Back to [[Note#Note]].\n');
	put(vault, 'img/pic.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
	put(
		vault,
		'binary.md',
		Buffer.concat([Buffer.from('looks like text '), Buffer.from([0, 1, 2]), Buffer.from(' [[Note]]')]),
	);
	// 7.2 MB: over the default 5 MB limit. Written as one buffer; it never gets read back.
	put(vault, 'huge.md', Buffer.alloc(Math.round(7.2 * MIB), 'a'));
	put(vault, 'bad-yaml.md', '---\ntitle: [unclosed\n---\nBody links to [[Note]].\n');
	put(vault, 'bom.md', '\uFEFF---\ntitle: With BOM\n---\nBody with [[Other]].\n');
	put(vault, 'crlf.md', '---\r\ntags: [alpha]\r\n---\r\n# Heading\r\n\r\nA line with [[Note]].\r\n');
	put(
		vault,
		`${CONFIG}/app.json`,
		JSON.stringify({ userIgnoreFilters: ['Archive/', '/draft/', 3], alwaysUpdateLinks: true }),
	);
	put(vault, `${CONFIG}/snippet.md`, '[[Note]]');
	put(vault, '.git/HEAD.md', 'not a note');
	put(vault, 'node_modules/pkg/readme.md', 'not a note');
	put(vault, 'sub/.trash/deleted.md', 'not a note');
	put(vault, `sub/${CONFIG}/nested.md`, 'a nested folder of that name is content');
	put(vault, 'sub/Deep.md', 'Deep [[Note]]');
	put(base, 'outside/secret.md', 'outside the vault');
	symlinkSync(join(base, 'outside/secret.md'), join(vault, 'escape.md'));
	symlinkSync(join(base, 'outside'), join(vault, 'escape-dir'));
	symlinkSync(join(vault, 'sub'), join(vault, 'alias-dir'));
	symlinkSync(vault, join(vault, 'sub', 'loop'));
	symlinkSync(join(vault, 'does-not-exist.md'), join(vault, 'dangling.md'));
});

afterAll(() => {
	if (base) rmSync(base, { recursive: true, force: true });
});

describe('NodeVaultSource on a temporary vault', () => {
	let source: NodeVaultSource;
	beforeAll(async () => {
		source = await openVault(vault);
	});

	it('lists files vault-relative with /, skipping dot-folders (as Obsidian does), node_modules and the config folder', () => {
		expect(source.listFiles()).toEqual([
			'Note.md',
			'Other.md',
			'bad-yaml.md',
			'binary.md',
			'bom.md',
			'crlf.md',
			'huge.md',
			'img/pic.png',
			'sub/Deep.md',
		]);
		// Walk entries whose notes are searched nowhere follow the notes, each with its skip reason.
		expect(source.listNotes()).toEqual([
			...source.listFiles().filter((p) => p.endsWith('.md')),
			'dangling.md',
			'escape-dir/',
			'escape.md',
		]);
		expect(source.vaultPath).toBe(vault);
		expect(source.configDir).toBe(CONFIG);
	});

	it('reports counts and phase timings', () => {
		expect(source.stats).toMatchObject({ files: 9, notes: 11, parsed: 6, skipped: 5 });
		for (const phase of ['walkMs', 'readMs', 'parseMs', 'linkMapsMs', 'totalMs'] as const)
			expect(source.stats[phase]).toBeGreaterThanOrEqual(0);
	});

	it('says why binary and oversized notes were not parsed', () => {
		expect(source.getSkipReason('binary.md')).toBe('binary content');
		expect(source.getSkipReason('huge.md')).toBe('larger than 5 MB (7.2 MB)');
		expect(source.getMetadata('binary.md')).toBeNull();
		expect(source.getMetadata('huge.md')).toBeNull();
		expect(source.getMtime('huge.md')).toEqual(expect.any(Number));
	});

	it('reports symlinks out of the vault, to its own folders, loops and dangling links without following them', () => {
		expect(source.getSkipReason('escape.md')).toBe('symbolic link to outside the vault');
		expect(source.getSkipReason('escape-dir/')).toBe('symbolic link to a folder outside the vault');
		expect(source.getSkipReason('sub/loop/')).toBe('symbolic link loop (to a folder that contains it)');
		expect(source.getSkipReason('alias-dir/')).toBe(
			'symbolic link to a folder of the vault, indexed at its own path (sub/)',
		);
		expect(source.getSkipReason('dangling.md')).toBe('broken symbolic link');
		expect(source.listSkipped().map((s) => s.path)).toEqual(
			expect.arrayContaining([
				'escape.md',
				'escape-dir/',
				'sub/loop/',
				'alias-dir/',
				'dangling.md',
				'binary.md',
				'huge.md',
			]),
		);
	});

	it('indexes everything else', () => {
		for (const path of ['Note.md', 'Other.md', 'bad-yaml.md', 'bom.md', 'crlf.md', 'sub/Deep.md']) {
			expect(source.getSkipReason(path), path).toBeNull();
			expect(source.getMetadata(path), path).not.toBeNull();
			expect(source.getMtime(path), path).toEqual(expect.any(Number));
		}
		expect(source.getMtime('img/pic.png')).toBeNull();
	});

	it('keeps a note with malformed YAML, with the error and its body links', () => {
		expect(source.getFrontmatterError('bad-yaml.md')).toEqual(expect.any(String));
		const meta = source.getMetadata('bad-yaml.md');
		expect(meta?.frontmatter).toBeUndefined();
		expect(meta?.links?.map((l) => l.link)).toEqual(['Note']);
		expect(source.getFrontmatterError('Note.md')).toBeNull();
	});

	it('strips a UTF-8 BOM before parsing and in read()', async () => {
		const text = await source.read('bom.md');
		expect(text.startsWith('---\ntitle')).toBe(true);
		expect(source.getMetadata('bom.md')?.frontmatter).toEqual({ title: 'With BOM' });
	});

	it('parses CRLF notes and returns their text unchanged', async () => {
		expect(source.getMetadata('crlf.md')?.frontmatter).toEqual({ tags: ['alpha'] });
		expect(source.getMetadata('crlf.md')?.links?.map((l) => l.link)).toEqual(['Note']);
		expect(await source.read('crlf.md')).toContain('\r\n# Heading\r\n');
	});

	it('reads userIgnoreFilters from app.json, keeping only strings', () => {
		expect(source.userIgnoreFilters).toEqual(['Archive/', '/draft/']);
	});

	it('builds the link maps over every file, attachments included', () => {
		expect(source.resolvedLinks()['Note.md']).toEqual({ 'Other.md': 1, 'img/pic.png': 1 });
		expect(source.unresolvedLinks()['Note.md']).toEqual({ Missing: 1 });
		expect(source.resolvedLinks()['Other.md']).toEqual({ 'Note.md': 1 });
		expect(source.resolvedLinks()['bom.md']).toEqual({ 'Other.md': 1 });
		expect(source.resolvedLinks()['binary.md']).toBeUndefined();
		expect(source.resolveLink('Deep', 'Note.md')).toBe('sub/Deep.md');
		expect(source.resolveLink('', 'Note.md')).toBe('Note.md');
	});

	it('rejects read() for skipped and unknown paths', async () => {
		await expect(source.read('huge.md')).rejects.toThrow('huge.md: not indexed: larger than 5 MB (7.2 MB)');
		await expect(source.read('img/pic.png')).rejects.toThrow('not a note of this vault');
		await expect(source.read('nope.md')).rejects.toThrow('not a note of this vault');
	});

	it('gives the same index with parallel fs/promises reads', async () => {
		const parallel = await openVault(vault, { readConcurrency: 4 });
		expect(parallel.listNotes()).toEqual(source.listNotes());
		for (const path of source.listNotes()) {
			expect(parallel.getMetadata(path), path).toEqual(source.getMetadata(path));
			expect(parallel.getSkipReason(path), path).toBe(source.getSkipReason(path));
		}
		expect(parallel.resolvedLinks()).toEqual(source.resolvedLinks());
		expect(parallel.unresolvedLinks()).toEqual(source.unresolvedLinks());
	});

	it('honours the size option and reports sizes in the unit that shows the difference', async () => {
		const small = await openVault(vault, { maxFileSize: 40 });
		expect(small.getSkipReason('Note.md')).toMatch(/^larger than 40 bytes \(\d+ bytes\)$/);
		expect(small.getSkipReason('huge.md')).toBe('larger than 40 bytes (7.2 MB)');
	});

	it('turns a parser crash into a skip reason', async () => {
		const crashing = await openVault(vault, {
			parse: () => {
				throw new Error('boom');
			},
		});
		expect(crashing.getSkipReason('Note.md')).toBe('parser failed (boom)');
		expect(crashing.resolvedLinks()).toEqual({});
	});

	it.skipIf(process.getuid?.() === 0)('says why an unreadable note was skipped (not as root)', async () => {
		const locked = join(vault, 'locked.md');
		writeFileSync(locked, 'secret');
		chmodSync(locked, 0o000);
		try {
			const v = await openVault(vault);
			expect(v.getSkipReason('locked.md')).toBe('unreadable (EACCES)');
		} finally {
			rmSync(locked, { force: true });
		}
	});
});

describe('app.json edge cases', () => {
	it('gives [] for a missing or malformed app.json', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'vq-appjson-'));
		try {
			put(dir, 'a.md', 'x');
			expect((await openVault(dir)).userIgnoreFilters).toEqual([]);
			put(dir, `${CONFIG}/app.json`, '{ not json');
			expect((await openVault(dir)).userIgnoreFilters).toEqual([]);
			put(dir, `${CONFIG}/app.json`, '{"userIgnoreFilters": "Archive/"}');
			expect((await openVault(dir)).userIgnoreFilters).toEqual([]);
			put(dir, '.config/app.json', '{"userIgnoreFilters": ["X/"]}');
			const custom = await openVault(dir, { configDir: '.config' });
			expect(custom.userIgnoreFilters).toEqual(['X/']);
			// Dot-folders are hidden like in Obsidian, whichever folder is the config folder.
			expect(custom.listFiles()).toEqual(['a.md']);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('VaultError', () => {
	it('names the resolved absolute path of a missing vault', async () => {
		const missing = join(tmpdir(), 'vq-no-such-vault-xyz');
		const relativePath = relative(process.cwd(), missing);
		await expect(openVault(relativePath)).rejects.toBeInstanceOf(VaultError);
		await expect(openVault(relativePath)).rejects.toThrow(`Vault folder not found: ${missing}`);
	});

	it('refuses a file as the vault path', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'vq-file-vault-'));
		try {
			put(dir, 'file.md', 'x');
			await expect(openVault(join(dir, 'file.md'))).rejects.toThrow(
				`Vault path is not a folder: ${join(dir, 'file.md')}`,
			);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

/** sha256 of every file below `root` (dot folders included), keyed by relative path. */
function hashTree(root: string): Map<string, string> {
	const out = new Map<string, string>();
	const visit = (dir: string): void => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const abs = join(dir, entry.name);
			if (entry.isDirectory()) visit(abs);
			else out.set(relative(root, abs), createHash('sha256').update(readFileSync(abs)).digest('hex'));
		}
	};
	visit(root);
	return out;
}

describeShared('read-only', () => {
	it('leaves every file of kepano-obsidian byte-identical, and adds none', async () => {
		const before = hashTree(KEPANO);
		const source = await openVault(KEPANO);
		await openVault(KEPANO, { readConcurrency: 8 });
		const after = hashTree(KEPANO);
		expect(after).toEqual(before);
		expect(source.listNotes().length).toBeGreaterThan(50);
	});
});
