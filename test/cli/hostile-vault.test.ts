/**
 * A vault built to hurt (issues 13 and 15): hostile notes, FIFOs, symlink loops and trees, links
 * out of the vault, a folder named like a note, a path past the OS limit. Every command answers
 * in bounded time, says what it skipped and why (status partial), and finds what it should in
 * the rest; the vault is left byte-identical.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';

interface Envelope {
	status: string;
	skipped: { path: string; reason: string }[];
	results?: { path: string }[];
	pack?: { path?: string; source?: string }[];
}

let base: string;
let vault: string;
let longFolder = '';
let before = '';

/**
 * Every entry of the vault with its type, size and modification time, listed by find(1): the
 * shared hash helper would block on the FIFOs and cannot open paths past PATH_MAX.
 */
function listing(): string {
	return spawnSync('sh', ['-c', `cd "${vault}" && find . -printf '%y %s %T@ %p\\n' | sort`], {
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	}).stdout;
}

/** Writes `content` at `vault/rel`, creating folders. */
function put(rel: string, content: string | Buffer): void {
	const abs = join(vault, rel);
	mkdirSync(join(abs, '..'), { recursive: true });
	writeFileSync(abs, content);
}

/** Ten anchors each listing the previous one nine times, with wikilink leaves. */
function aliasBomb(): string {
	const lines = ['a0: &a0 ["[[good]]"]'];
	for (let i = 1; i < 10; i++)
		lines.push(
			`a${i}: &a${i} [${Array(9)
				.fill(`*a${i - 1}`)
				.join(', ')}]`,
		);
	return `---\n${lines.join('\n')}\n---\nfindme #ok\n`;
}

/** A folder below the vault whose absolute path is longer than PATH_MAX (4096), made with relative `cd`s. */
function makeLongFolder(): string {
	const segment = 'd'.repeat(200);
	const depth = 22;
	// perl's chdir is relative (the shells' `cd` rebuilds the absolute path and fails past PATH_MAX).
	const script =
		'chdir $ARGV[0] or die; for (1..$ARGV[2]) { mkdir $ARGV[1] or die; chdir $ARGV[1] or die } open(my $f, ">", "deep.md") or die; print $f "findme #ok\\n"';
	const run = spawnSync('perl', ['-e', script, vault, segment, String(depth)]);
	if (run.status !== 0) throw new Error(`could not build the long path: ${String(run.stderr)}`);
	return `${Array(depth).fill(segment).join('/')}/`;
}

beforeAll(() => {
	base = mkdtempSync(join(tmpdir(), 'vq-hostile-'));
	vault = join(base, 'vault');
	mkdirSync(vault);
	put('good.md', '# Good\n\nfindme #ok, linking [[other]].\n');
	put('other.md', 'The other note.\n');
	put('docend.md', '---\na: 1\n...\nb: 2\n---\nfindme #ok\n');
	put('bomb.md', aliasBomb());
	put('utf16.md', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('findme #ok', 'utf16le')]));
	put('latin1.md', Buffer.from([...Buffer.from('caf'), 0xe9, ...Buffer.from(' findme #ok\n')]));
	put('nul.md', Buffer.from('findme \u0000 #ok\n'));
	put('cr.md', '---\rstatus: draft\r---\r# CR title\rfindme #ok\r');
	put('blocks.md', 'A paragraph to findme, quoted by its id. ^constructor\n');
	put('lists.md', `${'- '.repeat(50_000)}findme\n`);
	put('thai.md', `${'สวัสดีครับผมชื่อสมชายยินดีที่ได้รู้จัก'.repeat(5000)} findme\n`);
	put('dir.md/inner.md', 'findme #ok inside a folder named like a note\n');
	put('.obsidian/placeholder', '');
	for (const fifo of ['pipe.md', '.obsidian/app.json', '.obsidian/types.json']) {
		if (spawnSync('mkfifo', [join(vault, fifo)]).status !== 0) throw new Error('mkfifo failed');
	}
	put('../outside/secret.md', 'findme outside the vault');
	symlinkSync(join(base, 'outside'), join(vault, 'outside'));
	symlinkSync(join(vault, 'missing.md'), join(vault, 'gone.md'));
	symlinkSync(vault, join(vault, 'loop'));
	// 22 levels, each linking twice to the next: 4 million paths when links are followed blindly.
	for (let i = 0; i < 22; i++) mkdirSync(join(vault, 'tree', `t${i}`), { recursive: true });
	for (let i = 0; i < 21; i++)
		for (const name of ['a', 'b'])
			symlinkSync(join(vault, 'tree', `t${i + 1}`), join(vault, 'tree', `t${i}`, name));
	put('tree/t21/leaf.md', 'findme #ok at the bottom of the tree\n');
	longFolder = makeLongFolder();
	before = listing();
});

afterAll(() => {
	if (process.env.KEEP_HOSTILE) return;
	// rm(1): Node's rmSync cannot remove a path past PATH_MAX.
	if (base) spawnSync('rm', ['-rf', base]);
});

/** Runs one command with --json on the hostile vault (one blocked on a FIFO would run into the test's timeout). */
async function run(args: string[]): Promise<{ code: number; json: Envelope }> {
	const out = await cli([...args, '--vault', vault, '--json']);
	if (out.stdout === '') throw new Error(`no output (exit ${out.code}): ${out.stderr}`);
	return { code: out.code, json: JSON.parse(out.stdout) as Envelope };
}

/** The skip reason for `path` in an answer. */
function reasonOf(json: Envelope, path: string): string | undefined {
	return json.skipped.find((s) => s.path === path)?.reason;
}

describe('a hostile vault', () => {
	it('answers grep completely, with every unreadable thing skipped with its reason', async () => {
		const { code, json } = await run(['grep', 'findme']);
		expect(code).toBe(0);
		expect(json.status).toBe('partial');
		expect(json.results?.map((r) => r.path)).toEqual(
			expect.arrayContaining([
				'good.md',
				'docend.md',
				'bomb.md',
				'cr.md',
				'blocks.md',
				'lists.md',
				'thai.md',
				'dir.md/inner.md',
				'tree/t21/leaf.md',
			]),
		);
		expect(reasonOf(json, 'utf16.md')).toMatch(/UTF-16: convert the file to UTF-8/);
		expect(reasonOf(json, 'latin1.md')).toMatch(/not valid UTF-8 \(first bad byte on line 1\)/);
		expect(reasonOf(json, 'nul.md')).toMatch(/binary content/);
		expect(reasonOf(json, 'pipe.md')).toMatch(/FIFO, not a regular file/);
		expect(reasonOf(json, 'outside/')).toMatch(/symbolic link to a folder outside the vault/);
		expect(reasonOf(json, 'gone.md')).toMatch(/broken symbolic link/);
		// The first folder whose absolute path passes PATH_MAX is the one reported.
		const long = json.skipped.find((s) => s.path.startsWith('ddd'));
		expect(longFolder.startsWith(long?.path ?? '-')).toBe(true);
		expect(long?.reason).toMatch(/unreadable folder \(ENAMETOOLONG\)/);
		expect(json.results?.map((r) => r.path)).not.toContain('outside/secret.md');
	});

	it('reads a CR-only note as lines: its frontmatter and heading count', async () => {
		const prop = await run(['prop', 'status', 'draft']);
		expect(prop.json.results?.map((r) => r.path)).toEqual(['cr.md']);
		const tag = await run(['tag', 'ok']);
		expect(tag.json.results?.map((r) => r.path)).toEqual(
			expect.arrayContaining(['good.md', 'cr.md', 'docend.md', 'bomb.md', 'dir.md/inner.md']),
		);
		expect(reasonOf(tag.json, 'bomb.md')).toMatch(
			/frontmatter not parsed \(line 2: frontmatter expands to more than \d+ values/,
		);
		expect(reasonOf(tag.json, 'docend.md')).toMatch(/frontmatter not parsed \(.*single document/);
	});

	it('answers a ranked search and a pack, with the same skips', async () => {
		const search = await run(['search', 'findme']);
		expect(search.code).toBe(0);
		expect(search.json.status).toBe('partial');
		expect(search.json.results?.map((r) => r.path)).toEqual(
			expect.arrayContaining(['good.md', 'thai.md', 'lists.md']),
		);
		expect(reasonOf(search.json, 'pipe.md')).toMatch(/FIFO/);
		const pack = await run(['pack', 'findme']);
		expect([0, 1]).toContain(pack.code);
		expect(pack.json.status).not.toBe('failed');
		expect(reasonOf(pack.json, 'utf16.md')).toMatch(/UTF-16/);
	});

	it('packs a block whose id is named like an object property', async () => {
		const { code, json } = await run(['pack', '[[blocks#^constructor]]']);
		expect(code).toBe(0);
		expect(JSON.stringify(json.pack)).toContain('quoted by its id');
	});

	it('never wrote to the vault', () => {
		expect(listing()).toBe(before);
		expect(before).toContain('p 0 ');
	});
});
