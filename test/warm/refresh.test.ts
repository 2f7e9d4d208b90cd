/**
 * A warm session's refreshes (src/warm/session.ts over the CLI's opener): writes to existing notes
 * are patched into the previous open, the search index takes the changes only when a search asks
 * (or the host catches up), and every answer after any number of such refreshes equals a fresh
 * read of the vault — structural queries, search and pack alike.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { warmOpener } from '../../src/warm/opener';
import { TOOL_STAMP } from '../../src/cli/vault';
import type { StructuredQuery } from '../../src/core/query/types';
import { openVault } from '../../src/node/vault-source';
import { VaultSession } from '../../src/warm/session';

const vault = mkdtempSync(join(tmpdir(), 'vq-warm-refresh-'));
afterAll(() => rmSync(vault, { recursive: true, force: true }));

function write(path: string, text: string): void {
	writeFileSync(join(vault, path), text);
}

describe('a warm session refreshed after writes to its notes', () => {
	it('patches the open, defers the search index until a search, and answers as a fresh read', async () => {
		mkdirSync(join(vault, '.obsidian'), { recursive: true });
		mkdirSync(join(vault, 'sub'), { recursive: true });
		write('a.md', '# Alpha\n\nabout zebras, see [[b]] #animal\n');
		write('b.md', '# Beta\n\nabout giraffes\n');
		write('sub/c.md', '---\nstatus: open\n---\n# Gamma\n\nabout lions [[a]]\n');
		process.env.VAULT_QUERY_RACY_MS = '0';
		const session = await VaultSession.start(warmOpener(vault, {}, false, TOOL_STAMP, () => undefined));
		await session.loadSearchIndex();

		const edits: [string, string][] = [
			['a.md', '# Alpha\n\nabout zebras and okapis, see [[sub/c]] #animal/striped\n'],
			['b.md', '# Beta\n\nabout giraffes and zebras [[a]]\n'],
			['sub/c.md', '---\nstatus: done\n---\n# Gamma\n\nabout lions\n'],
		];
		for (const [path, text] of edits) {
			write(path, text);
			session.changed([path]);
			await session.refresh();
			const state = await session.current();
			expect(state.snapshot).toMatchObject({ state: 'refreshed', reread: 1 });
			// No search came since the last refresh: the index is handed on, not yet brought up to date.
			expect(state.engine.searchState).toBe('not built');
		}
		const state = await session.current();
		const fresh = new VaultEngine(await openVault(vault));
		const queries: StructuredQuery[] = [
			{ type: 'backlinks', target: 'a' },
			{ type: 'backlinks', target: 'sub/c' },
			{ type: 'links', source: 'a' },
			{ type: 'links', source: 'b' },
			{ type: 'tag', tag: 'animal' },
			{ type: 'prop', key: 'status', value: 'done' },
		];
		for (const query of queries) {
			expect(await state.engine.query(query, { reuseGraph: true }), JSON.stringify(query)).toEqual(
				await fresh.query(query),
			);
		}
		for (const q of ['zebras', 'okapis', 'lions', 'giraffes zebras'])
			expect(await state.engine.search(q), q).toEqual(await fresh.search(q));
		expect(state.engine.searchState).toBe('ready');
		const pack = { query: 'zebras and okapis', builtAt: '2026-01-01' };
		expect(await state.engine.pack(pack)).toEqual(await fresh.pack(pack));
		delete process.env.VAULT_QUERY_RACY_MS;
	});
});
