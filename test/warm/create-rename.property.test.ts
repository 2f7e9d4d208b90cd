/**
 * After random bursts of notes created, written, deleted and renamed while a server watches, the
 * warm session (its refreshes patch the previous open, src/node/snapshot/patch-cached.ts) answers
 * every query as a fresh read of the vault: tags, backlinks, links and ranked search — including
 * links that resolve once their target is created, move to a nearer note of the same name, and
 * fall back unresolved (or to another note of that name) when it is renamed away.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL_STAMP } from '../../src/cli/vault';
import { VaultEngine } from '../../src/core/engine/engine';
import type { StructuredQuery } from '../../src/core/query/types';
import { openVault } from '../../src/node/vault-source';
import { warmOpener } from '../../src/warm/opener';
import { VaultSession } from '../../src/warm/session';
import { applyFileChanges, fileChange } from '../helpers/file-changes';

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Paths a change may touch: two of each name in different folders, so short links have a nearer and a farther target. */
const POOL = ['home.md', 'a/home.md', 'topic.md', 'a/topic.md', 'a/b/idea.md', 'idea.md', 'a/b/ghost.md', 'pic.png'];
/** Names the notes link to: the pool's, a path, an attachment and one never written. */
const LINKS = ['home', 'topic', 'idea', 'ghost', 'a/topic', 'pic.png', 'nowhere'];

const text = fc
	.record({
		links: fc.array(fc.constantFrom(...LINKS), { maxLength: 3 }),
		tag: fc.constantFrom('#alpha', '#beta', ''),
		word: fc.constantFrom('zebra', 'okapi', 'lion'),
	})
	.map((r) => `# Note\n\nabout the ${r.word} ${r.tag}\n\n${r.links.map((l) => `[[${l}]]`).join(' ')}\n`);

const change = fileChange(POOL, text);

/** The queries compared after each burst. */
function queries(): StructuredQuery[] {
	const out: StructuredQuery[] = [
		{ type: 'tag', tag: 'alpha' },
		{ type: 'tag', tag: 'beta' },
	];
	for (const path of POOL.filter((p) => p.endsWith('.md'))) {
		const ref = path.slice(0, -3);
		out.push({ type: 'backlinks', target: ref }, { type: 'links', source: ref });
	}
	return out;
}

describe('a warm session after random creates, renames and deletes', () => {
	it('answers tags, backlinks, links and search as a fresh read after every burst', async () => {
		process.env.VAULT_QUERY_RACY_MS = '0';
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
				async (bursts) => {
					const vault = mkdtempSync(join(tmpdir(), 'vq-warm-random-'));
					made.push(vault);
					mkdirSync(join(vault, '.obsidian'));
					mkdirSync(join(vault, 'a/b'), { recursive: true });
					writeFileSync(
						join(vault, 'home.md'),
						'# Home\n\nabout the zebra #alpha [[topic]] [[idea]] [[ghost]]\n',
					);
					writeFileSync(join(vault, 'a/topic.md'), '# Topic\n\nabout the okapi [[home]] [[nowhere]]\n');
					writeFileSync(join(vault, 'a/b/idea.md'), '# Idea\n\nabout the lion #beta [[topic]] [[pic.png]]\n');
					const session = await VaultSession.start(warmOpener(vault, {}, false, TOOL_STAMP, () => undefined));
					await session.loadSearchIndex();
					for (const burst of bursts) {
						const reported = applyFileChanges(vault, burst);
						session.changed(reported);
						await session.refresh();
						const state = await session.current();
						const fresh = new VaultEngine(await openVault(vault));
						for (const query of queries())
							expect(
								await state.engine.query(query, { reuseGraph: true }),
								JSON.stringify(query),
							).toEqual(await fresh.query(query));
						for (const q of ['zebra', 'okapi', 'lion', 'home'])
							expect(await state.engine.search(q), q).toEqual(await fresh.search(q));
					}
				},
			),
			{ numRuns: 15 },
		);
		delete process.env.VAULT_QUERY_RACY_MS;
	});
});
