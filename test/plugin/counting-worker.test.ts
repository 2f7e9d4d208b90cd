// @vitest-environment happy-dom
/**
 * The plugin's build shared by two index workers (the bundle main.js inlines, each in a Node
 * worker thread): the builder counts the first notes and the counting worker the rest, and the
 * saved part is byte for byte the one a single worker saves. When the counting worker fails to
 * run, the builder counts its notes itself, with the same part.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIELD_COUNT } from '../../src/core/search/inverted-index';
import { resolveSearchSettings } from '../../src/core/search/settings';
import { CountedShare } from '../../src/obsidian/counted-share';
import { PostedNotes } from '../../src/obsidian/posted-notes';
import { indexWorkers } from '../../src/obsidian/worker-host';
import { packPaths, type ToIndexWorker } from '../../src/obsidian/worker-protocol';
import { rng } from '../../scripts/gen-vault.mjs';
import { FakeApp } from './fake-app';
import { savedPartBytes, startPlugin, unloadLoadedPlugins } from './harness';
import { NodeIndexWorker, useNodeIndexWorker } from './node-index-worker';

const OLD = Date.parse('2026-01-01T00:00:00Z');
const NOTES = 400;

let undo: (() => void) | null = null;

beforeEach(async () => {
	undo = await useNodeIndexWorker();
});

afterEach(() => {
	unloadLoadedPlugins();
	undo?.();
	vi.restoreAllMocks();
});

/** `NOTES` notes of seeded words in several scripts, tags, aliases, a broken frontmatter now and then, and an unreadable byte. */
function files(seed: number): Record<string, string> {
	const next = rng(seed);
	const words = [
		'zebra',
		'ledger',
		'Поиск',
		'搜索索引',
		'café',
		'front-end',
		'ノート',
		'snake_case',
		'orbit',
		'κόσμος',
	];
	const pick = (): string => words[Math.floor(next() * words.length)]!;
	const out: Record<string, string> = {};
	for (let i = 0; i < NOTES; i++) {
		const own = `own${i}x${Math.floor(next() * 97)}`;
		const yaml =
			i % 17 === 0 ? '---\ntags: [unclosed\n---\n' : `---\ntags: [${own}]\naliases: [${pick()} ${i}]\n---\n`;
		const body = Array.from({ length: 10 + Math.floor(next() * 80) }, pick).join(' ');
		out[`area${i % 6}/note ${i}.md`] = `${yaml}# ${pick()} ${own}\n\n${body}\n\n\`${own}()\`\n`;
	}
	return out;
}

/** A vault over `all`, its metadata indexed. */
function vault(all: Record<string, string>, appId: string): FakeApp {
	const app = new FakeApp(all, { appId, mtimes: Object.fromEntries(Object.keys(all).map((p) => [p, OLD])) });
	app.indexAll();
	return app;
}

/**
 * The plugin started over a vault of `all` with nothing saved (its saved index cleared after, so
 * the next start under the same app id builds again: the id is in the part's header): its build
 * log, saved part and a few answers.
 */
async function built(
	all: Record<string, string>,
	appId: string,
): Promise<{ log: string[]; bytes: Buffer; hits: unknown }> {
	const app = vault(all, appId);
	const plugin = await startPlugin(app);
	await plugin.engine.savesSettled();
	const bytes = Buffer.from(await savedPartBytes(app));
	expect(await plugin.engine.clearSaved()).toBe(true);
	const hits: unknown[] = [];
	for (const q of ['zebra orbit', '搜索', 'café', 'κόσμος', 'ledger snake_case']) {
		const r = await plugin.engine.search(q, { limit: 50 });
		hits.push(r.results.map((h) => [h.path, h.score]));
	}
	return { log: [...(plugin.engine.saved?.log ?? [])], bytes, hits };
}

describe('a build shared by two index workers', () => {
	it('saves the very part a single worker saves, the later notes counted by the second worker', async () => {
		const all = files(5);
		const single = await built(all, 'one-worker');
		expect(single.log[0]).toBe('built in a worker (0 notes to reconcile)');

		indexWorkers.countingFrom = 0;
		indexWorkers.cores = 4;
		const before = NodeIndexWorker.started;
		const shared = await built(all, 'one-worker');
		expect(NodeIndexWorker.started - before).toBe(2);
		const counted = Number(
			/^built in two workers \((\d+) notes counted by the second\)/.exec(shared.log[0] ?? '')?.[1],
		);
		// The second worker counted the later notes, more than half of them (the builder also adds every note and encodes the part).
		expect(counted).toBeGreaterThan(NOTES / 2);
		expect(counted).toBeLessThan(NOTES);
		expect(shared.bytes.equals(single.bytes)).toBe(true);
		expect(shared.hits).toEqual(single.hits);
		expect((shared.hits as unknown[][]).filter((h) => h.length > 0).length).toBe(5);
	});

	it('leaves no second worker on two cores or fewer (one is the main thread’s), nor in a small vault', async () => {
		indexWorkers.cores = 2;
		indexWorkers.countingFrom = 0;
		const before = NodeIndexWorker.started;
		expect((await built(files(2), 'one-core')).log[0]).toBe('built in a worker (0 notes to reconcile)');
		indexWorkers.cores = 8;
		indexWorkers.countingFrom = NOTES + 1;
		expect((await built(files(2), 'small')).log[0]).toBe('built in a worker (0 notes to reconcile)');
		expect(NodeIndexWorker.started - before).toBe(2);
	});

	it('counts the notes itself when the counting worker fails, and saves the same part', async () => {
		const all = files(9);
		const single = await built(all, 'alone');
		indexWorkers.countingFrom = 0;
		indexWorkers.cores = 4;
		const create = indexWorkers.create;
		let made = 0;
		const told: ToIndexWorker['type'][] = [];
		indexWorkers.create = (code) => {
			// The second worker made is the counting one: its code fails as it starts.
			const worker = create(++made === 2 ? 'throw new Error("counting worker broken")' : code);
			const post = worker.postMessage.bind(worker);
			worker.postMessage = (message, transfer) => (told.push(message.type), post(message, transfer));
			return worker;
		};
		const alone = await built(all, 'alone');
		expect(made).toBe(2);
		expect(told).toContain('helper-failed');
		expect(alone.log[0]).toBe('built in a worker (0 notes to reconcile)');
		expect(alone.bytes.equals(single.bytes)).toBe(true);
		expect(alone.hits).toEqual(single.hits);
	});

	it('hands the notes not counted yet back to the builder when the counting worker fails midway', async () => {
		const order = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md'];
		const asked: string[] = [];
		const vaultOf = { vaultPath: '', configDir: '.obsidian', userIgnoreFilters: [] };
		const list = { settings: resolveSearchSettings({}), vault: vaultOf, notes: packPaths(order) };
		const source = new PostedNotes(list, (paths) => asked.push(...paths), order);
		const share = new CountedShare(order, 2, source);
		void source.read('a.md');
		expect(asked).toEqual(['a.md', 'b.md']); // the builder asks for its own share only
		const [c, d, e] = ['c.md', 'd.md', 'e.md'].map((path) => share.take(path));
		const note = (path: string, error: string | null) => ({
			path,
			bytes: null,
			error,
			metadata: null,
			skipReason: null,
			frontmatterError: null,
		});
		const info = { path: 'c.md', basename: 'c', title: 'c', folder: '', aliases: [], tags: [], frontmatter: {} };
		share.receive({
			type: 'counted',
			terms: ['kiwi', 'mango'],
			notes: [note('c.md', null), note('d.md', 'EACCES')],
			infos: [{ ...info, abstract: '', synthesis: false, forwardLinks: [], bodyStart: 0 }, null],
			termIds: Uint32Array.from([1, 0]),
			tfs: Uint32Array.from([1, 2]),
			ends: Uint32Array.from([2]),
			fieldLen: new Uint32Array(FIELD_COUNT).fill(3),
		});
		expect(Array.from((await c)!.terms, (id) => share.term(id))).toEqual(['mango', 'kiwi']);
		await expect(d).rejects.toThrow('EACCES'); // read as unreadable, as the builder's own read says
		share.fail();
		expect(await e).toBeNull(); // the builder reads it itself
		void source.read('e.md');
		expect(asked).toEqual(['a.md', 'b.md', 'e.md']);
		expect(share.counted).toBe(1);
	});
});
