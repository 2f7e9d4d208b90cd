/**
 * A warm session started on a vault nobody has indexed (the background server's and the MCP
 * server's first minute): each note is parsed once, the snapshot saved, and the indexes are built
 * over that saved snapshot — the session holds no note's text and no parse of the whole vault
 * while it builds them, and the search index is fed by that one read — the first search is
 * answered before the search index is saved, and every answer equals a fresh read. Counted, not timed: parses through the opener's parser, texts the
 * session's source holds, the cache's files when the first search is answered, and the saved parts
 * a second start loads.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL_STAMP } from '../../src/cli/vault';
import { VaultEngine } from '../../src/core/engine/engine';
import type { StructuredQuery } from '../../src/core/query/types';
import { parseNote } from '../../src/node/parser/index';
import { countingParse } from '../helpers/counting-parse';
import type { CachedVaultSource } from '../../src/node/snapshot/cached-source';
import { openVault } from '../../src/node/vault-source';
import { warmOpener } from '../../src/warm/opener';
import { VaultSession } from '../../src/warm/session';

const NOTES = 120;

const vault = mkdtempSync(join(tmpdir(), 'vq-warm-first-'));
afterAll(() => rmSync(vault, { recursive: true, force: true }));

/** The files in this test file's own snapshot cache (test/helpers/cache-env.ts). */
const cacheFiles = (): string[] => readdirSync(process.env.VAULT_QUERY_CACHE_DIR!).sort();

/** Notes with headings, tags, properties, aliases and links (some unresolved), one with broken frontmatter. */
function makeVault(): void {
	mkdirSync(join(vault, '.obsidian'), { recursive: true });
	for (let i = 0; i < NOTES; i++) {
		mkdirSync(join(vault, `f${i % 3}`), { recursive: true });
		const frontmatter =
			i === 7
				? '---\nstatus: [open\n---\n'
				: `---\nstatus: ${i % 2 ? 'open' : 'done'}\naliases: [Alias ${i}]\n---\n`;
		writeFileSync(
			join(vault, `f${i % 3}`, `n${i}.md`),
			`${frontmatter}# Note ${i}\n\n## Part ${i % 5}\n\nAbout zebras ${i % 4 ? 'and okapis' : 'only'}, see [[n${(i + 1) % NOTES}]] and [[missing ${i}]]. #topic/t${i % 6}\n`,
		);
	}
}

describe('a warm session started from an empty cache', () => {
	it('parses each note once, holds no note text while it builds, and answers as a fresh read', async () => {
		makeVault();
		process.env.VAULT_QUERY_RACY_MS = '0';
		const { counter, parse } = countingParse();
		const open = (): Promise<VaultSession> =>
			VaultSession.start(warmOpener(vault, { parse }, false, TOOL_STAMP, () => undefined));
		const session = await open();
		const started = await session.current();
		expect(started.snapshot).toMatchObject({ state: 'built', notes: NOTES });
		// The indexes are built over the saved snapshot: no text and no parse of the whole vault held.
		expect((started.source as CachedVaultSource).textsHeld()).toBe(0);
		// A search that arrives first (as the servers call it) is answered before the search index is saved.
		const saved = cacheFiles();
		const loading = session.loadSearchIndex();
		const first = await session.use(({ engine }) => engine.search('zebras'));
		expect(cacheFiles()).toEqual(saved);
		await loading;
		expect(started.engine.searchState).toBe('ready');
		expect(cacheFiles().length).toBeGreaterThan(saved.length);

		const fresh = new VaultEngine(await openVault(vault, { parse: parseNote }));
		const queries: StructuredQuery[] = [
			{ type: 'backlinks', target: 'n3' },
			{ type: 'links', source: 'f1/n4' },
			{ type: 'tag', tag: 'topic/t2' },
			{ type: 'prop', key: 'status', value: 'done' },
		];
		for (const query of queries)
			expect(await started.engine.query(query), JSON.stringify(query)).toEqual(await fresh.query(query));
		expect(first).toEqual(await fresh.search('zebras'));
		for (const q of ['zebras', 'okapis', 'Alias 9', 'part'])
			expect(await started.engine.search(q), q).toEqual(await fresh.search(q));
		// Each note parsed once: the start read them and fed the search index as it went (the one note
		// whose frontmatter does not parse was parsed again from disk when the index read it later).
		expect(counter.parses).toBe(NOTES);

		// The next start finds the snapshot and the search part as saved: nothing parsed, nothing built.
		counter.parses = 0;
		const again = await open();
		const warm = await again.current();
		expect(warm.snapshot).toMatchObject({ state: 'warm', reread: 0 });
		await again.loadSearchIndex();
		expect(warm.engine.searchState).toBe('ready');
		expect(await warm.engine.search('okapis')).toEqual(await fresh.search('okapis'));
		expect(counter.parses).toBe(0);
		delete process.env.VAULT_QUERY_RACY_MS;
	});
});
