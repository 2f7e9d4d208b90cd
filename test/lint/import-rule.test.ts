/**
 * The dependency rule (core ← obsidian ← ui, core ← node ← cli/mcp) is enforced by lint: an
 * import across it in each layer is an error. Lints probe sources in memory (nothing is written).
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths';

const RULE = '@typescript-eslint/no-restricted-imports';

/** The import-rule errors lint reports for `code` placed at `file`. */
async function importErrors(file: string, code: string): Promise<string[]> {
	const eslint = new ESLint({
		cwd: REPO,
		// The probe is not on disk, so type-aware parsing is off; only the import rule runs.
		overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
		ruleFilter: ({ ruleId }) => ruleId === RULE,
	});
	const [result] = await eslint.lintText(code, { filePath: `${REPO}/${file}` });
	return result.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const CROSSINGS: [string, string][] = [
	['src/obsidian/probe.ts', "import { facesHost } from '../ui/host';"],
	['src/node/probe.ts', "import { COMMANDS } from '../cli/commands/index';"],
	['src/node/probe.ts', "import { x } from '../mcp/server';"],
	['src/mcp/probe.ts', "import { Plugin } from 'obsidian';"],
	['src/mcp/probe.ts', "import { facesHost } from '../ui/host';"],
	['src/core/probe.ts', "import { x } from '../mcp/server';"],
	['src/ui/probe.ts', "import { x } from '../mcp/server';"],
];

describe('the import rule', () => {
	it.each(CROSSINGS)(
		'%s may not %s',
		async (file, line) => {
			const errors = await importErrors(file, `${line}\nexport const probe = 1;\n`);
			expect(errors.length).toBe(1);
			expect(errors[0]).toMatch(new RegExp(`^${RULE}: .*dependency rule`));
		},
		60_000,
	);

	it('allows the imports the rule allows', async () => {
		expect(
			await importErrors(
				'src/ui/probe.ts',
				"import { PluginEngine } from '../obsidian/plugin-engine';\nexport const probe = PluginEngine;\n",
			),
		).toEqual([]);
		expect(
			await importErrors(
				'src/mcp/probe.ts',
				"import { VaultEngine } from '../core/engine/engine';\nexport const probe = VaultEngine;\n",
			),
		).toEqual([]);
	}, 60_000);
});
