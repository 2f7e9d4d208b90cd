import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { openVault } from '../../src/node/vault-source';
import { cli } from '../helpers/cli';

/** An outside file a link in the vault points at: a schema block whose bad field would print its values. */
const SECRET = 'hunter2-outside-value';
const OUTSIDE_SCHEMA = `# Not the vault's\n\n\`\`\`yaml\nfields:\n  - name: ${SECRET}\n    type: ${SECRET}-type\n\`\`\`\n`;

describe.runIf(process.platform !== 'win32')(
	'a schema note linked out of the vault is not followed: it reads as not found',
	() => {
		let vault: string;
		let outside: string;

		beforeAll(() => {
			const base = mkdtempSync(join(tmpdir(), 'vq-schema-link-'));
			vault = join(base, 'vault');
			outside = join(base, 'outside');
			mkdirSync(join(vault, '_meta'), { recursive: true });
			mkdirSync(outside);
			writeFileSync(join(vault, 'alpha.md'), '---\ntype: note\n---\nAlpha.\n');
			writeFileSync(join(outside, 'schema.md'), OUTSIDE_SCHEMA);
			symlinkSync(join(outside, 'schema.md'), join(vault, '_meta', 'frontmatter-schema.md'));
			symlinkSync(join(outside, 'missing.md'), join(vault, '_meta', 'dangling.md'));
			symlinkSync(outside, join(vault, 'linked-folder'));
		});

		it('the default schema note, --schema through a link and a folder link all say "not found", never the outside values', async () => {
			const runs = [
				await cli(['lookup', 'alpha', '--vault', vault, '--no-cache']),
				await cli([
					'lookup',
					'alpha',
					'--vault',
					vault,
					'--no-cache',
					'--schema',
					join(vault, 'linked-folder', 'schema.md'),
				]),
			];
			for (const run of runs) {
				expect(run.code).toBe(2);
				expect(run.stdout + run.stderr).not.toContain(SECRET);
				expect(run.stdout + run.stderr).toContain('not found');
			}
		});

		it("the engine (MCP read's schema) answers a link to an existing outside file exactly as one to a missing file", async () => {
			const engine = new VaultEngine(await openVault(vault));
			const linked = await engine.read({
				operation: 'lookup',
				slug: 'alpha',
				schema: '_meta/frontmatter-schema.md',
			} as never);
			const dangling = await engine.read({
				operation: 'lookup',
				slug: 'alpha',
				schema: '_meta/dangling.md',
			} as never);
			expect(JSON.stringify(linked)).not.toContain(SECRET);
			expect(linked.status).toBe('failed');
			const message = (report: unknown): string =>
				String((report as { error?: string }).error).replace(/_meta\/\S+\.md/g, 'PATH');
			expect(message(linked)).toBe(message(dangling));
		});
	},
);
