/**
 * A note created, renamed or deleted while a server watches costs its refresh what an edit costs:
 * the new note is read and parsed, and links are resolved again only in the notes whose links its
 * name can move — not the walk, the snapshot and every link of the vault again. Counted, not
 * timed: parses (through the opener's parser) and link resolutions (the resolver's lookups) while
 * one refresh runs on a vault of a few hundred notes, and the answers after it. A call without a
 * server, opening through the snapshot saved before the change, resolves as few.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { TOOL_STAMP } from '../../src/cli/vault';
import { VaultEngine } from '../../src/core/engine/engine';
import type { StructuredQuery } from '../../src/core/query/types';
import { parseNote } from '../../src/node/parser/index';
import { countingParse } from '../helpers/counting-parse';
import { LinkResolver } from '../../src/node/resolver';
import { FileSnapshotStore } from '../../src/node/snapshot/file-store';
import { openCachedVault } from '../../src/node/snapshot/open-cached';
import { openVault } from '../../src/node/vault-source';
import { warmOpener } from '../../src/warm/opener';
import { VaultSession } from '../../src/warm/session';

const NOTES = 400;
/** Notes whose `[[Ghost]]` link is unresolved until a note of that name appears. */
const GHOST_LINKERS = 8;

const vault = mkdtempSync(join(tmpdir(), 'vq-warm-create-'));
const cache = mkdtempSync(join(tmpdir(), 'vq-warm-create-cache-'));
afterAll(() => {
	rmSync(vault, { recursive: true, force: true });
	rmSync(cache, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

/** Four folders of notes, each linking to the next note and to a note nobody wrote; a few to `Ghost`. */
function makeVault(): void {
	mkdirSync(join(vault, '.obsidian'), { recursive: true });
	for (let i = 0; i < NOTES; i++) {
		mkdirSync(join(vault, `f${i % 4}`), { recursive: true });
		const ghost = i % (NOTES / GHOST_LINKERS) === 0 ? ' and [[Ghost]]' : '';
		writeFileSync(
			join(vault, `f${i % 4}`, `n${i}.md`),
			`# Note ${i}\n\nSee [[n${(i + 1) % NOTES}]], [[missing ${i}]]${ghost}. #topic\n`,
		);
	}
}

/** What one refresh after `change` did: parses and link resolutions counted while it ran. */
async function refreshAfter(
	session: VaultSession,
	counter: { parses: number },
	paths: string[],
	change: () => void,
): Promise<{ parses: number; resolutions: number }> {
	change();
	const resolve = vi.spyOn(LinkResolver.prototype, 'getFirstLinkpathDest');
	counter.parses = 0;
	session.changed(paths);
	await session.refresh();
	const resolutions = resolve.mock.calls.length;
	resolve.mockRestore();
	return { parses: counter.parses, resolutions };
}

describe('a warm session refreshed after a note is created, renamed or deleted', () => {
	it('parses the one note and resolves only the links its name can move; answers as a fresh read', async () => {
		makeVault();
		process.env.VAULT_QUERY_RACY_MS = '0';
		const { counter, parse } = countingParse();
		const session = await VaultSession.start(warmOpener(vault, { parse }, false, TOOL_STAMP, () => undefined));
		await session.loadSearchIndex();
		const fresh = async (query: StructuredQuery): Promise<unknown> =>
			new VaultEngine(await openVault(vault, { parse: parseNote })).query(query);
		const answers = async (query: StructuredQuery): Promise<void> => {
			const state = await session.current();
			expect(await state.engine.query(query, { reuseGraph: true }), JSON.stringify(query)).toEqual(
				await fresh(query),
			);
		};
		// Every link of the vault: two per note and the ghost links. A full refresh resolves them all again.
		const links = 2 * NOTES + GHOST_LINKERS;

		const created = await refreshAfter(session, counter, ['f1/Ghost.md'], () =>
			writeFileSync(join(vault, 'f1/Ghost.md'), '# Ghost\n\nBack to [[n0]]. #topic\n'),
		);
		expect(created.parses).toBe(1);
		// The new note's links and the ghost links of the notes that named it, not the vault's.
		expect(created.resolutions).toBeGreaterThan(0);
		expect(created.resolutions).toBeLessThanOrEqual(2 + GHOST_LINKERS * 3);
		expect(created.resolutions).toBeLessThan(links / 10);
		expect((await session.current()).snapshot).toMatchObject({ state: 'refreshed', reread: 1 });
		await answers({ type: 'backlinks', target: 'Ghost' });
		await answers({ type: 'backlinks', target: 'n0' });
		await answers({ type: 'links', source: 'n0' });
		await answers({ type: 'tag', tag: 'topic' });

		const renamed = await refreshAfter(session, counter, ['f1/Ghost.md', 'f2/Spirit.md'], () =>
			renameSync(join(vault, 'f1/Ghost.md'), join(vault, 'f2/Spirit.md')),
		);
		expect(renamed.parses).toBe(1);
		expect(renamed.resolutions).toBeLessThanOrEqual(2 + GHOST_LINKERS * 3);
		expect((await session.current()).snapshot).toMatchObject({ state: 'refreshed', reread: 1, removed: 1 });
		await answers({ type: 'backlinks', target: 'n0' });
		await answers({ type: 'backlinks', target: 'Spirit' });
		await answers({ type: 'links', source: 'n0' });
		await answers({ type: 'links', source: 'Spirit' });
		await answers({ type: 'tag', tag: 'topic' });

		const deleted = await refreshAfter(session, counter, ['f2/Spirit.md'], () =>
			rmSync(join(vault, 'f2/Spirit.md')),
		);
		expect(deleted.parses).toBe(0);
		expect(deleted.resolutions).toBeLessThanOrEqual(2 + GHOST_LINKERS * 3);
		await answers({ type: 'backlinks', target: 'n0' });
		await answers({ type: 'tag', tag: 'topic' });
		const state = await session.current();
		const engine = new VaultEngine(await openVault(vault, { parse: parseNote }));
		for (const q of ['Ghost', 'Note 0', 'Spirit'])
			expect(await state.engine.search(q), q).toEqual(await engine.search(q));
		delete process.env.VAULT_QUERY_RACY_MS;
	});

	it('a call without a server, after a note is created and renamed, resolves only the links its name can move', async () => {
		// The vault as the first test left it: the note it created, renamed and deleted is gone.
		const store = new FileSnapshotStore(cache);
		const open = () => openCachedVault(vault, { store, tool: 'test', racyWindowMs: 0, readPiecemeal: true });
		await open();
		const counted = async (change: () => void): Promise<number> => {
			change();
			const resolve = vi.spyOn(LinkResolver.prototype, 'getFirstLinkpathDest');
			const opened = await open();
			const resolutions = resolve.mock.calls.length;
			resolve.mockRestore();
			expect(opened.report).toMatchObject({ state: 'refreshed', reread: 1 });
			const full = await openVault(vault);
			expect(opened.source.resolvedLinks()).toEqual(full.resolvedLinks());
			expect(opened.source.unresolvedLinks()).toEqual(full.unresolvedLinks());
			expect(opened.source.linkSourcesOf('f3/Ghost.md')).toEqual(
				full.listNotes().filter((p) => Object.hasOwn(full.resolvedLinks()[p] ?? {}, 'f3/Ghost.md')),
			);
			return resolutions;
		};
		const created = await counted(() => writeFileSync(join(vault, 'f3/Ghost.md'), '# Ghost\n\n[[n1]]\n'));
		expect(created).toBeGreaterThan(0);
		expect(created).toBeLessThanOrEqual(1 + GHOST_LINKERS * 3);
		const renamed = await counted(() => renameSync(join(vault, 'f3/Ghost.md'), join(vault, 'f3/Phantom.md')));
		expect(renamed).toBeLessThanOrEqual(1 + GHOST_LINKERS * 3);
	});
});
