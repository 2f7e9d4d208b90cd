/**
 * A full answer (grep or text-search with every result, as the CLI streams it) over a source
 * opened from its snapshot reads every note once: it answers what a plain read of the vault
 * answers, and leaves no note's metadata decoded in the source, while a query on properties still
 * keeps what it decoded (decoding every note's frontmatter again on each call is what it saves).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NoteResult } from '../../src/core/contract';
import { VaultEngine } from '../../src/core/engine/engine';
import type { ReaderNoteResult } from '../../src/core/reader/types';
import { FileSnapshotStore } from '../../src/node/snapshot/file-store';
import { openCachedVault } from '../../src/node/snapshot/open-cached';
import { PASSING_WINDOW } from '../../src/node/snapshot/cached-source';
import { openVault } from '../../src/node/vault-source';

/** More notes than a passing view holds, so what it lets go shows. */
const NOTES = PASSING_WINDOW * 3;
const work = mkdtempSync(join(tmpdir(), 'vq-passing-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Notes with a title, tags, a link property, body links and an embed, each naming the word `common`; a schema note. */
function makeVault(): string {
	const root = join(work, 'vault');
	mkdirSync(join(root, '.obsidian'), { recursive: true });
	mkdirSync(join(root, '_meta'), { recursive: true });
	writeFileSync(
		join(root, '_meta', 'frontmatter-schema.md'),
		'# Schema\n\n```yaml\nfields:\n  status: [active]\n```\n',
	);
	for (let i = 0; i < NOTES; i++) {
		const next = `n${(i + 1) % NOTES}`;
		writeFileSync(
			join(root, `n${i}.md`),
			`---\ntitle: Note ${i}\nstatus: active\ntags: [t${i % 3}]\nup: "[[${next}]]"\n---\n# Heading ${i}\n\ncommon words [[${next}]] and [[n0]] ![[n${i % 5}]]\n`,
		);
	}
	return root;
}

describe('a full answer over a source opened from its snapshot', () => {
	it('answers as a plain read does and leaves no note decoded; a property query still keeps its notes', async () => {
		const root = makeVault();
		const store = new FileSnapshotStore(join(work, 'cache'));
		const options = { maxFileSize: 100_000, store, tool: 'test', racyWindowMs: 0 };
		await openCachedVault(root, options);
		const opened = await openCachedVault(root, { ...options, readPiecemeal: true, lean: true });
		expect(opened.report.state).toBe('warm');
		const source = opened.source;
		const cached = new VaultEngine(source);
		const plain = new VaultEngine(await openVault(root, { maxFileSize: 100_000 }));

		const grepped: NoteResult[] = [];
		const briefs: unknown[] = [];
		const envelope = await cached.grepStream(
			{ type: 'grep', pattern: 'common', limit: 100_000 },
			{
				begin: () => undefined,
				note: async (brief, full) => {
					briefs.push(brief);
					grepped.push(await full());
				},
			},
		);
		const whole = await plain.query({ type: 'grep', pattern: 'common', limit: 100_000 });
		expect(grepped).toHaveLength(NOTES);
		expect(grepped).toEqual(whole.results);
		expect(envelope.matched).toBe(NOTES);
		expect(briefs).toEqual(
			(whole.results as NoteResult[]).map((r) => ({ path: r.path, title: r.title, matches: r.matches })),
		);
		expect(source.heldMetadata.decoded).toBe(0);
		expect(source.heldMetadata.linkEntries).toBe(0);

		const read: ReaderNoteResult[] = [];
		await cached.readStream(
			{ operation: 'text-search', pattern: 'common', max_results: 100_000 },
			{ begin: () => undefined, note: async (_brief, full) => void read.push(await full()) },
		);
		const report = await plain.read({ operation: 'text-search', pattern: 'common', max_results: 100_000 });
		expect(read).toHaveLength(NOTES);
		expect(read).toEqual(report.results);
		expect(source.heldMetadata.decoded).toBe(0);
		expect(source.heldMetadata.linkEntries).toBe(0);

		// A query that reads every note's frontmatter keeps it decoded, as before.
		const prop = await cached.query({ type: 'prop', key: 'status', value: 'active' }, { reuseGraph: true });
		expect(prop).toEqual(await plain.query({ type: 'prop', key: 'status', value: 'active' }, { reuseGraph: true }));
		expect(source.heldMetadata.decoded).toBe(NOTES);
		// A backlinks query keeps the link-map entries it read.
		await cached.query({ type: 'backlinks', target: 'n0' });
		expect(source.heldMetadata.linkEntries).toBeGreaterThan(0);
	});
});
