/**
 * A full grep listing over a source opened from its snapshot finds each note's body start in the
 * bytes it reads and titles a note from its saved frontmatter keys: the listing is the plain
 * read's, and no note is parsed again from disk (a note without frontmatter was, for its first
 * section, once per full answer) nor its metadata decoded where it has no title; a text listing
 * takes each such note's lines as bytes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import type { NoteResult } from '../../src/core/contract';
import { FileSnapshotStore } from '../../src/node/snapshot/file-store';
import { openCachedVault } from '../../src/node/snapshot/open-cached';
import { openVault } from '../../src/node/vault-source';

const work = mkdtempSync(join(tmpdir(), 'vq-grep-body-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Notes of every kind of start: frontmatter, none, a malformed block, a `Title` key, CRLF, a BOM, a match inside the block. */
const NOTES: Record<string, string> = {
	'plain.md': 'common first line\nsecond\ncommon third\n',
	'front.md': '---\nstatus: common\n---\ncommon body\n',
	'titled.md': '---\nTitle: Named\n---\n\ncommon\n',
	'broken.md': '---\nkey: [unclosed\n---\ncommon after a malformed block\n',
	'crlf.md': '---\r\na: 1\r\n---\r\ncommon\r\nmore common\r\n',
	'bom.md': '\ufeff---\nb: 2\n---\ncommon with a byte order mark\n',
	'unclosed.md': '---\nnot closed\ncommon\n',
	'dashes.md': '----\ncommon\n---\n',
};

describe('a full grep listing read from bytes', () => {
	it('lists what a plain read lists and parses no note again', async () => {
		const root = join(work, 'vault');
		mkdirSync(join(root, '.obsidian'), { recursive: true });
		for (const [name, text] of Object.entries(NOTES)) writeFileSync(join(root, name), text);
		const store = new FileSnapshotStore(join(work, 'cache'));
		const options = { maxFileSize: 100_000, store, tool: 'test', racyWindowMs: 0 };
		await openCachedVault(root, options);
		const opened = await openCachedVault(root, { ...options, readPiecemeal: true, lean: true });
		expect(opened.report.state).toBe('warm');
		const cached = new VaultEngine(opened.source);
		const plain = new VaultEngine(await openVault(root, { maxFileSize: 100_000 }));

		const briefs: unknown[] = [];
		await cached.grepStream(
			{ type: 'grep', pattern: 'common', limit: 100_000 },
			{ begin: () => undefined, note: (brief) => void briefs.push(brief) },
		);
		const whole = await plain.query({ type: 'grep', pattern: 'common', limit: 100_000 });
		expect(briefs).toHaveLength(Object.keys(NOTES).length);
		expect(briefs).toEqual(
			(whole.results as NoteResult[]).map((r) => ({ path: r.path, title: r.title, matches: r.matches })),
		);
		expect(briefs).toContainEqual(expect.objectContaining({ path: 'titled.md', title: 'Named' }));
		expect(opened.source.heldMetadata.reparsed).toBe(0);

		// A text listing takes every note matched on its bytes as bytes: none is decoded into matches.
		const raw: string[] = [];
		const decoded: string[] = [];
		await cached.grepStream(
			{ type: 'grep', pattern: 'common', limit: 100_000 },
			{
				begin: () => undefined,
				note: (brief) => void decoded.push(brief.path),
				noteRaw: (path, _title, lines) => {
					raw.push(path);
					expect(lines.lines.length).toBeGreaterThan(0);
				},
			},
		);
		expect(decoded).toEqual([]);
		expect(raw).toEqual(briefs.map((brief) => (brief as NoteResult).path));
	});

	it("keeps a note's bytes while another note is parsed again from disk for a field the snapshot defers", async () => {
		const root = join(work, 'vault-reparse');
		mkdirSync(join(root, '.obsidian'), { recursive: true });
		writeFileSync(join(root, 'listed.md'), 'listed line one\nlisted line two\n');
		writeFileSync(join(root, 'other.md'), '# Heading\n\n- a list item of another note, longer than the first\n');
		const store = new FileSnapshotStore(join(work, 'cache-reparse'));
		const options = { maxFileSize: 100_000, store, tool: 'test', racyWindowMs: 0 };
		await openCachedVault(root, options);
		const opened = await openCachedVault(root, { ...options, readPiecemeal: true, lean: true });
		const held = opened.source.readBytes('listed.md');
		expect(held).not.toBeNull();
		const before = Buffer.from(held!.bytes).toString('utf8');
		// `sections` is not stored in the snapshot: reading it parses the other note from disk.
		expect(opened.source.getMetadata('other.md')?.sections?.length).toBeGreaterThan(0);
		expect(opened.source.heldMetadata.reparsed).toBe(1);
		expect(Buffer.from(held!.bytes).toString('utf8')).toBe(before);
		expect(held!.text(0, held!.bytes.length)).toBe('listed line one\nlisted line two\n');
	});
});
