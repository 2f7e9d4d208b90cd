// @vitest-environment happy-dom
/**
 * Other plugins call the API from untyped JS: a malformed request answers `failed` with the
 * reason, for every method, instead of throwing into their code.
 */
import { describe, expect, it } from 'vitest';
import { FakeApp } from './fake-app';
import { EXAMPLE_VAULT, loadPlugin, settle } from './harness';

describe('the plugin API answers a malformed request with status failed and the reason', () => {
	it('every method, given nothing, null or the wrong shape, resolves to a failed answer naming itself', async () => {
		const app = FakeApp.fromFolder(EXAMPLE_VAULT);
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await settle();
		const api = plugin.api as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
		const calls: [string, unknown[]][] = [
			['query', [undefined]],
			['query', [{}]],
			['query', [null]],
			['query', [{ type: 'no-such-type' }]],
			['lookup', [undefined, 5]],
			['filter', [42]],
			['graph', [null]],
			['textSearch', [{}]],
			['search', [null]],
			['search', [{ not: 'a string' }]],
			['pack', [undefined]],
			['pack', [{}]],
			['note', [{}]],
			['note', [null]],
		];
		for (const [method, args] of calls) {
			const answer = (await api[method]!(...args)) as { status?: string; error?: string };
			const label = `${method}(${args.map((a) => JSON.stringify(a) ?? 'undefined').join(', ')})`;
			expect(answer.status, label).toBe('failed');
			expect(answer.error, label).toEqual(expect.any(String));
		}
		expect((await plugin.api.query({ type: 'tag', tag: 'copilot' })).results.length).toBeGreaterThan(0);
	});
});
