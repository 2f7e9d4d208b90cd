/**
 * Issue 9 case 6: side files — the keyword index, the synonyms note, the schema note — are read
 * by explicit path through the port, hidden folders included, on the real Node adapter; the
 * walk still never lists them as notes. Paths leaving the vault are refused.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILES } from '../../src/core/config/profiles';
import { VaultEngine } from '../../src/core/engine/engine';
import { openVault } from '../../src/node/vault-source';

let root = '';
let vault = '';

const SCHEMA = [
	'# Schema',
	'',
	'```yaml',
	'fields:',
	'  type:',
	'    type: enum',
	'    values: [claim, note]',
	'```',
	'',
].join('\n');
const FILES: Record<string, string> = {
	'Notes/xss-prevention.md': '---\ntype: claim\n---\nEscape output before rendering.\n',
	'Notes/csp.md': '---\ntype: note\n---\nContent security policy headers.\n',
	'.claude/index.md': '## Keyword Index\n- xss: [[xss-prevention]]\n',
	'.meta/synonyms.md': 'escaping: sanitising\n',
	'.meta/schema.md': SCHEMA,
	'.obsidian/app.json': '{}',
};

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'vq-side-'));
	vault = join(root, 'vault');
	for (const [path, text] of Object.entries(FILES)) {
		mkdirSync(join(vault, path, '..'), { recursive: true });
		writeFileSync(join(vault, path), text);
	}
	writeFileSync(join(root, 'outside.md'), 'secret');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('issue 9 case 6: side files in dot-folders, through the port', () => {
	it('the Node adapter reads them by explicit path but never lists them', async () => {
		const source = await openVault(vault);
		expect(source.listNotes()).toEqual(['Notes/csp.md', 'Notes/xss-prevention.md']);
		expect(await source.readSideFile('.claude/index.md')).toContain('## Keyword Index');
		expect(await source.readSideFile('.obsidian/app.json')).toBe('{}');
		expect(await source.readSideFile('.claude/missing.md')).toBeNull();
		await expect(source.readSideFile('../outside.md')).rejects.toThrow(/inside the vault/);
		await expect(source.readSideFile('/etc/hostname')).rejects.toThrow(/inside the vault/);
	});

	it('a keyword index at .claude/index.md (the path the team-folders profile sets) is used by search', async () => {
		const engine = new VaultEngine(await openVault(vault), {
			search: { keywordIndexPath: PROFILES['team-folders']!.settings.keywordIndexPath },
		});
		const result = await engine.search('xss');
		expect(result.keyword_index).toBe('used');
		expect(result.limitations.join('\n')).not.toContain('No keyword index');
		expect(result.results[0]?.path).toBe('Notes/xss-prevention.md');
	});

	it('a synonyms note in a dot-folder expands queries', async () => {
		const engine = new VaultEngine(await openVault(vault), { search: { synonymsPath: '.meta/synonyms.md' } });
		const result = await engine.search('sanitising');
		expect(result.terms.expanded.map((e) => e.source)).toContain('synonym');
	});

	it('a schema note in a dot-folder is read by the schema-strict reader', async () => {
		const engine = new VaultEngine(await openVault(vault), {
			reader: { schemaPath: '.meta/schema.md', defaultFolders: ['Notes/'] },
		});
		const report = await engine.read({ operation: 'filter', where: ['type=claim'] });
		expect(report.status).toBe('success');
		expect(report.results.map((r) => r.path)).toEqual(['Notes/xss-prevention.md']);
	});
});

describe('issue 9 case 6 in the Obsidian adapter', () => {
	it('reads a dot-folder file through vault.adapter and a vault note through the vault', async () => {
		const { FakeApp, asApp } = await import('../plugin/fake-app');
		const { ObsidianNoteSource } = await import('../../src/obsidian/source');
		const app = new FakeApp({ 'Notes/a.md': 'alpha' });
		app.vault.adapter.files.set('.claude/index.md', '## Keyword Index\n- a: [[a]]\n');
		const source = new ObsidianNoteSource(asApp(app));
		expect(source.listNotes()).toEqual(['Notes/a.md']);
		expect(await source.readSideFile('.claude/index.md')).toContain('Keyword Index');
		expect(await source.readSideFile('Notes/a.md')).toBe('alpha');
		expect(await source.readSideFile('.claude/none.md')).toBeNull();
		await expect(source.readSideFile('../x.md')).rejects.toThrow(/inside the vault/);
	});
});
