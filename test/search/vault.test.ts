import { join } from 'node:path';
import { expect, it } from 'vitest';
import { searchCommand } from '../../src/cli/commands/search';
import { search, SearchIndex } from '../../src/core/search/search';
import { openVault } from '../../src/node/vault-source';
import { describeShared, HELP_VAULT } from '../helpers/shared';

const ZH = join(HELP_VAULT, 'zh');

describeShared('ranked search on obsidian-help-i18n/zh', () => {
	it('a Chinese query finds Chinese notes, with the alias/filename tier', async () => {
		const index = await SearchIndex.build(await openVault(ZH));
		const r = await search(index, '快捷键', { limit: 5 });
		expect(r.results[0]!.path).toBe('用户界面/快捷键.md');
		expect(r.results[0]!.tier).toBe('alias-filename');
		expect(r.results[0]!.match_term).toBe('快捷键');
		// The typed word is the note's own name: its aliases (Hotkeys) are not added as query words.
		expect(r.terms.typed).toEqual(['快捷键']);
		expect(r.terms.expanded.map((e) => e.text)).not.toContain('Hotkeys');

		const links = await search(index, '如何在笔记之间创建链接', { limit: 5 });
		expect(links.terms.typed).toEqual(['笔记', '之间', '创建', '链接']);
		const top = links.results.slice(0, 3).map((h) => h.path);
		expect(top).toContain('链接笔记与文件/内部链接.md');
		expect(top).toContain('快速入门/链接笔记.md');
	});

	it('runs as the CLI command, Markdown and JSON', async () => {
		const out: string[] = [];
		const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(`ERR ${t}`), cwd: ZH };
		const code = await searchCommand.run({ positionals: ['标签'], flags: { limit: 3 } }, io);
		expect(code).toBe(0);
		expect(out[0]).toContain('## Search: "标签"');
		expect(out[0]).toMatch(/\n\d+ notes match; showing 3 \(raise --limit to see more\):\n/);
		expect(out[0]).toContain('### 1. 标签\n');
		expect(out[0]).toContain('- **Why**: matched in the title or an alias: 标签');
		out.length = 0;
		await searchCommand.run({ positionals: ['标签'], flags: { limit: 3, json: true } }, io);
		const json = JSON.parse(out[0]!) as { results: { path: string; tier: string }[]; keyword_index: string };
		expect(json.results).toHaveLength(3);
		expect(json.keyword_index).toBe('disabled'); // neutral defaults: no keyword index unless a setting or profile names one
	});
});
