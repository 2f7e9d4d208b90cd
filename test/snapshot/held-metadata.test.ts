/**
 * A source opened from a snapshot with a bound on the kept notes' metadata it holds (`keepDecoded`;
 * notes parsed again from disk are bounded by default) keeps only the most recent few after a full
 * answer (a grep of every note, with titles, frontmatter and links) read them all, and queries that
 * read the notes again answer exactly what a plain read of the vault answers.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import type { StructuredQuery } from '../../src/core/query/types';
import { FileSnapshotStore } from '../../src/node/snapshot/file-store';
import { openCachedVault } from '../../src/node/snapshot/open-cached';
import { openVault } from '../../src/node/vault-source';

const NOTES = 12;
const KEEP = 3;
/** The vault and the cache folder, under one temporary folder removed at the end. */
const work = mkdtempSync(join(tmpdir(), 'vq-held-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Notes with a title, tags, a link property, body links and a list (a deferred field), each naming the word `common`. */
function makeVault(): string {
	const root = join(work, 'vault');
	mkdirSync(join(root, '.obsidian'), { recursive: true });
	for (let i = 0; i < NOTES; i++) {
		const next = `n${(i + 1) % NOTES}`;
		writeFileSync(
			join(root, `n${i}.md`),
			`---\ntitle: Note ${i}\ntags: [t${i % 3}]\nup: "[[${next}]]"\n---\n# Heading ${i}\n\ncommon words [[${next}]] and [[n0]]\n\n- item ${i}\n`,
		);
	}
	return root;
}

const QUERIES: StructuredQuery[] = [
	{ type: 'grep', pattern: 'common', limit: 100000 },
	{ type: 'backlinks', target: 'n0' },
	{ type: 'tag', tag: 't1' },
	{ type: 'grep', pattern: 'common', limit: 100000 },
];

describe('decoded metadata held by a source opened from its snapshot', () => {
	it('holds at most its bound after a full grep and answers every query again as a plain read does', async () => {
		const root = makeVault();
		const store = new FileSnapshotStore(join(work, 'cache'));
		const options = { maxFileSize: 100_000, store, tool: 'test', racyWindowMs: 0 };
		await openCachedVault(root, options);
		const opened = await openCachedVault(root, { ...options, readPiecemeal: true, lean: true, keepDecoded: KEEP });
		expect(opened.report.state).toBe('warm');
		const source = opened.source;
		const cached = new VaultEngine(source);
		const plain = new VaultEngine(await openVault(root, { maxFileSize: 100_000 }));
		for (const query of QUERIES) {
			const answer = await cached.query(query, { reuseGraph: true });
			expect(answer, JSON.stringify(query)).toEqual(await plain.query(query, { reuseGraph: true }));
			expect(source.heldMetadata.decoded).toBeLessThanOrEqual(KEEP);
		}
		// A deferred field of every note is parsed again from disk; those are bounded too.
		for (const path of source.listNotes())
			expect(JSON.stringify(source.getMetadata(path)?.listItems)).toBe(
				JSON.stringify(plain.source.getMetadata(path)?.listItems),
			);
		expect(source.heldMetadata.reparsed).toBeLessThanOrEqual(KEEP);
	});
});
