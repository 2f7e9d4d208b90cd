/**
 * The plugin's saved search index in Chromium's real IndexedDB: the first page load builds the
 * index in a real Web Worker (from the bundle inlined into the page, as into main.js) and saves
 * the part it encoded; a reload (Obsidian started again over the same vault) restores it — no
 * build from the notes — and answers every search as before, and as a build on the main thread. A
 * re-save runs in a real Web Worker too, from the part in IndexedDB.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO } from '../helpers/paths';
import { describeInChromium, type HarnessPage } from './harness-page';

const OUT = join(REPO, 'test-output', 'e2e-saved-index');
const QUERIES = ['position sizing', 'kelly', 'risk', 'backlinks:conventions', 'copilot data'];

let harness: HarnessPage;

/** Loads the page and waits for the plugin to be ready with its index (built or restored) and saved. */
async function load(reload: boolean): Promise<void> {
	await harness.load(reload);
	await harness.page.evaluate(() => window.harness?.plugin.engine.savesSettled());
}

/** What the page answers: each query's hits (path and backlinks), the builds so far and what the saved index did. */
function observe(): Promise<{ answers: unknown; builds: number; log: string[] }> {
	return harness.page.evaluate(async (queries) => {
		const h = window.harness;
		if (!h) throw new Error('no harness');
		const answers: Record<string, unknown> = {};
		for (const q of queries) {
			const r = await h.plugin.engine.search(q, { limit: 20 });
			answers[q] = [r.status, r.results.map((hit) => [hit.path, hit.backlinks])];
		}
		return { answers, builds: h.builds(), log: [...(h.plugin.engine.saved?.log ?? [])] };
	}, QUERIES);
}

describeInChromium('the saved search index in Chromium', OUT, (opened) => {
	harness = opened;

	it('is built in a worker and saved on the first load, then restored (not rebuilt) after a reload, answering the same', async () => {
		await load(false);
		const first = await observe();
		expect(first.builds).toBe(0); // no build on the page's main thread: the worker built it
		expect(first.log).toEqual([
			'built in a worker (0 notes to reconcile)',
			expect.stringMatching(/^saved \(\d+ notes\) by the worker$/), // the worker saved it: none of it came to the page
		]);
		const hits = Object.values(first.answers as Record<string, [string, unknown[]]>);
		// partial, not failed, where a note's frontmatter does not parse (it is searched by its body, and said so).
		expect(hits.every(([status, results]) => status !== 'failed' && results.length > 0)).toBe(true);

		await load(true);
		const second = await observe();
		expect(second.builds).toBe(0);
		expect(second.log).toEqual(['search index loaded (0 notes re-indexed)', 'restored (0 notes to reconcile)']);
		expect(second.answers).toEqual(first.answers);
		expect(harness.errors).toEqual([]);
	});

	it('re-saves in a real Worker from the part in IndexedDB, and a reload restores what it saved', async () => {
		await load(false);
		const before = await observe();
		const resaved = await harness.page.evaluate(async () => {
			const h = window.harness;
			if (!h) throw new Error('no harness');
			const builds = h.builds();
			const done = await h.plugin.engine.saveNow();
			return { done, builds: h.builds() - builds, log: h.plugin.engine.saved?.log.at(-1) };
		});
		expect(resaved).toMatchObject({ done: true, builds: 0 });
		expect(resaved.log).toMatch(/^saved \(\d+ notes\) by a worker \(0 re-indexed\)$/);
		await load(true);
		const after = await observe();
		expect(after.log).toEqual(['search index loaded (0 notes re-indexed)', 'restored (0 notes to reconcile)']);
		expect(after.answers).toEqual(before.answers);
		expect(harness.errors).toEqual([]);
	});

	it('builds in a real Worker (and in two) with no build step on the main thread, answering as a main-thread build', async () => {
		await load(false);
		const rebuilt = await harness.page.evaluate(async () => {
			const h = window.harness;
			if (!h) throw new Error('no harness');
			const builds = h.builds();
			await h.plugin.engine.rebuild();
			await h.plugin.engine.settled();
			return { builds: h.builds() - builds, log: h.plugin.engine.saved?.log.slice(-2) };
		});
		expect(rebuilt).toEqual({
			builds: 0,
			log: [
				'built in a worker (0 notes to reconcile)',
				expect.stringMatching(/^saved \(\d+ notes\) by the worker$/),
			],
		});
		const inWorker = await observe();
		// Shared by two real Workers over a MessageChannel (the vault is small: the share is asked for).
		const shared = await harness.page.evaluate(async () => {
			const h = window.harness;
			if (!h) throw new Error('no harness');
			Object.assign(h.indexWorkers, { countingFrom: 0, cores: 4 });
			await h.plugin.engine.rebuild();
			await h.plugin.engine.settled();
			Object.assign(h.indexWorkers, { countingFrom: Infinity });
			return h.plugin.engine.saved?.log.filter((line) => line.startsWith('built in')).at(-1) ?? '';
		});
		expect(shared).toMatch(
			/^built in two workers \([1-9]\d* notes counted by the second\) \(0 notes to reconcile\)$/,
		);
		expect((await observe()).answers).toEqual(inWorker.answers);
		await harness.page.evaluate(async () => {
			const h = window.harness;
			if (!h) throw new Error('no harness');
			h.indexWorkers.code = null; // as where no worker can start
			await h.plugin.engine.rebuild();
			await h.plugin.engine.settled();
		});
		const onMain = await observe();
		expect(onMain.builds).toBe(inWorker.builds + 1);
		expect(onMain.log).toContain('built on the main thread: no worker bundle in this build');
		expect(onMain.answers).toEqual(inWorker.answers);
		expect(harness.errors).toEqual([]);
	});

	it('takes the plugin’s turns on the main thread through a MessageChannel, one message a turn, in Chromium', async () => {
		await load(false);
		const posted = await harness.page.evaluate(async () => {
			const h = window.harness;
			if (!h) throw new Error('no harness');
			// eslint-disable-next-line @typescript-eslint/unbound-method -- applied to its port below, and put back
			const post = MessagePort.prototype.postMessage;
			let count = 0;
			MessagePort.prototype.postMessage = function (this: MessagePort, ...args: [unknown]) {
				count++;
				return post.apply(this, args);
			};
			try {
				for (let turn = 0; turn < 50; turn++) await h.plugin.engine.source.turns.next();
			} finally {
				MessagePort.prototype.postMessage = post;
			}
			return count;
		});
		expect(posted).toBe(50);
		expect(harness.errors).toEqual([]);
	});
});
