// @vitest-environment happy-dom
/**
 * The plugin face of context packs on the fake App (our parser behind Obsidian's API shape):
 * "Copy context pack" puts the Markdown on the clipboard from the selection or from the prompt
 * (pre-filled with the active note's title), the notice reports tokens, sources and gaps, the
 * budget comes from the settings, `api.pack` returns the CLI's JSON, and the search index follows
 * edits.
 */
import { join } from 'node:path';
import { TFile } from 'obsidian';
import { describe, expect, it } from 'vitest';
import { buildPack, estimateTokens } from '../../src/core/pack/pack';
import { SearchIndex } from '../../src/core/search/search';
import { INDEX_BUILDING } from '../../src/obsidian/index-lifecycle';
import { openVault } from '../../src/node/vault-source';
import { FakeApp } from '../plugin/fake-app';
import { loadPlugin, settle } from '../plugin/harness';
import { captureClipboard } from '../ui/clipboard';
import { describeShared, HELP_VAULT } from '../helpers/shared';
import { waitFor } from '../helpers/wait';

const ZH = join(HELP_VAULT, 'zh');
const QUESTION = '如何链接到笔记中的标题，以及如何嵌入文件？';

const clipboard = captureClipboard();

/** A loaded, indexed plugin over a folder (or files), its search index built. */
async function ready(
	files: string | Record<string, string>,
	saved?: unknown,
): Promise<{ app: FakeApp; plugin: Awaited<ReturnType<typeof loadPlugin>> }> {
	const app =
		typeof files === 'string' ? FakeApp.fromFolder(files, { name: 'zh' }) : new FakeApp(files, { name: 'small' });
	const plugin = await loadPlugin(app, saved);
	app.layoutReady();
	app.indexAll();
	await plugin.engine.searchIndex();
	return { app, plugin };
}

/** The same note source under another vault name (methods still run on the real source). */
function namedAs<T extends { vaultPath: string }>(source: T, name: string): T {
	return new Proxy(source, {
		get: (target, key) => {
			if (key === 'vaultPath') return name;
			const value: unknown = Reflect.get(target, key, target);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}

/** Runs the command and waits for its notice. */
async function copy(app: FakeApp): Promise<string> {
	expect(app.commands.executeCommandById('vault-query:copy-context-pack')).toBe(true);
	return waitForNotice();
}

async function waitForNotice(): Promise<string> {
	let text = '';
	await waitFor(() => {
		const notices = [...document.querySelectorAll('.notice-message')].map((el) => el.textContent ?? '');
		text = notices.find((n) => n.startsWith('Context pack copied') || n.startsWith('No context pack')) ?? '';
		expect(text).not.toBe('');
	});
	return text;
}

function select(app: FakeApp, text: string): void {
	Object.assign(app.workspace, { activeEditor: { editor: { getSelection: () => text } } });
}

describeShared('Copy context pack (plugin, obsidian-help-i18n/zh)', () => {
	it('packs the editor selection and puts the Markdown on the clipboard; the notice reports tokens of the budget, sources, gaps', async () => {
		const { app, plugin } = await ready(ZH);
		select(app, `  ${QUESTION}\n`);
		const notice = await copy(app);
		expect(clipboard).toHaveLength(1);
		const md = clipboard[0]!;
		expect(md).toMatch(
			/^# Context pack\n\n## PACK\n\n### \[S1\] 链接笔记与文件\/内部链接\.md § 链接到笔记中的标题 \(lines 67–71\) · \d{4}-\d{2}-\d{2} \(file modified\)\n/,
		);
		expect(md).toContain('## COVERAGE\n\n- 如何链接到笔记中的标题 — S1');
		expect(md).toContain('"vault_path": "zh"');
		const used = estimateTokens(md);
		expect(used).toBeLessThanOrEqual(2000);
		const handoff = JSON.parse(md.slice(md.indexOf('```json') + 7, md.lastIndexOf('```'))) as {
			tokens_used: number;
			source_count: number;
			token_budget: number;
		};
		expect(handoff).toMatchObject({ tokens_used: used, token_budget: 2000 });
		expect(notice).toMatch(
			new RegExp(
				`^Context pack copied: ${used.toLocaleString('en-US')} of 2,000 tokens, ${handoff.source_count} sources, \\d+ gaps?\\.$`,
			),
		);
		expect(plugin.settings.packBudget).toBe(2000);
	});

	it('api.pack returns the same pack as the Node face (the CLI --json), the vault named as Obsidian names it', async () => {
		const { plugin } = await ready(ZH);
		const viaPlugin = await plugin.api.pack({ query: QUESTION, budget: 1200, builtAt: '2026-07-01' });
		// The handoff names the vault and its length counts against the budget, so the Node face is
		// given Obsidian's name for it: otherwise a longer checkout path fits one quote fewer.
		const node = namedAs(await openVault(ZH), 'zh');
		const viaNode = await buildPack(node, await SearchIndex.build(node), {
			query: QUESTION,
			budget: 1200,
			builtAt: '2026-07-01',
		});
		expect(viaPlugin.status).toBe('success');
		expect(viaPlugin.pack).toEqual(viaNode.pack);
		expect(viaPlugin.coverage).toEqual(viaNode.coverage);
		expect(viaPlugin.gaps).toEqual(viaNode.gaps);
		expect(viaPlugin.handoff).toEqual(viaNode.handoff);
		expect(viaPlugin.markdown).toBe(viaNode.markdown);
		expect(viaPlugin.handoff.vault_path).toBe('zh');
	});
});

const SMALL: Record<string, string> = {
	'Sync.md':
		'---\ncreated: 2024-05-01\n---\n# Sync\n\nSync keeps notes the same on every device. Sync uses end-to-end encryption.\n',
	'Tags.md': '# Tags\n\nTags group notes. Nest tags with a slash.\n',
	'Draft.md': '---\nstatus: draft\n---\nSync will change next year.\n',
};

describe('Copy context pack (plugin, small vault)', () => {
	it("without a selection, prompts with the active note's title; Enter copies; the budget comes from the settings", async () => {
		const { app } = await ready(SMALL, { packBudget: 400 });
		const active = app.vault.getAbstractFileByPath('Sync.md');
		if (!(active instanceof TFile)) throw new Error('missing note');
		app.workspace.activeFile = active;
		expect(app.commands.executeCommandById('vault-query:copy-context-pack')).toBe(true);
		await settle();
		const modal = document.querySelector<HTMLElement>('.modal-container .vault-query-pack-modal');
		expect(modal?.querySelector('.modal-title')?.textContent).toBe('Copy context pack');
		const input = modal?.querySelector<HTMLInputElement>('input.vault-query-pack-input');
		expect(input?.value).toBe('Sync');
		input?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
		const notice = await waitForNotice();
		expect(document.querySelector('.vault-query-pack-modal')).toBeNull();
		expect(clipboard[0]).toContain('### [S1] Sync.md § Sync (line 6) · 2024-05-01 (created)');
		expect(clipboard[0]).toContain('"token_budget": 400');
		expect(clipboard[0]).toContain('Left out as a draft: Draft.md');
		expect(notice).toMatch(/^Context pack copied: \d+ of 400 tokens, 1 source, 1 gap\.$/);
	});

	it('says why when there is nothing to pack, and copies nothing', async () => {
		const { app } = await ready(SMALL, { packBudget: 30 });
		select(app, 'sync');
		expect(await copy(app)).toMatch(/^No context pack: budget: 30 tokens cannot hold/);
		expect(clipboard).toEqual([]);
	});

	it('the search index follows edits, creations and renames', async () => {
		const { app, plugin } = await ready(SMALL);
		app.modify('Tags.md', '# Tags\n\nTags group notes. A zeppelin tag is unusual.\n');
		app.create('New.md', '# New\n\nThe xylophone note is new.\n');
		await settle();
		expect((await plugin.api.pack({ query: 'zeppelin' })).pack.map((s) => s.path)).toEqual(['Tags.md']);
		app.rename('New.md', 'Folder/Renamed.md');
		await settle();
		expect((await plugin.api.pack({ query: 'xylophone' })).pack.map((s) => s.path)).toEqual(['Folder/Renamed.md']);
		app.delete('Folder/Renamed.md');
		await settle();
		expect((await plugin.api.pack({ query: 'xylophone' })).pack).toEqual([]);
	});

	it('answers failed before the layout is ready', async () => {
		const app = new FakeApp(SMALL);
		const plugin = await loadPlugin(app);
		const pack = await plugin.api.pack({ query: 'sync' });
		expect(pack).toMatchObject({ status: 'failed', error: INDEX_BUILDING, markdown: '' });
		expect(pack.handoff.token_budget).toBe(2000);
	});
});
