import { boolFlag, listFlag, positionals, UsageError } from '../args';
import { EXIT, type Command } from '../command';
import { openCliVault } from '../vault';

/** `vault-query schema draft`: a schema note drawn from the vault, on stdout only. */
export const schemaCommand: Command = {
	name: 'schema',
	summary: "schema draft: print a schema note drawn from the vault's frontmatter (stdout only; nothing is written)",
	usage: 'draft',
	examples: [
		'vault-query schema draft > /tmp/schema.md',
		'vault-query filter --where "rating>=7" --schema /tmp/schema.md',
		'vault-query schema draft --folders Notes,References --json',
	],
	flags: {
		folders: {
			kind: 'list',
			value: 'A,B',
			help: 'draw the draft from these folders only (default: every note in scope)',
		},
	},
	check: (args) => {
		const [action] = positionals(args, ['action']);
		if (action !== 'draft') throw new UsageError(`unknown schema action "${action}"; the one action is: draft`);
	},
	run: async (args, io) => {
		const { engine } = await openCliVault(args, io);
		const folders = listFlag(args, 'folders');
		const text = await engine.schemaDraft(folders.length > 0 ? folders : undefined);
		if (boolFlag(args, 'json'))
			io.stdout(
				JSON.stringify({ status: 'success', vault_path: engine.source.vaultPath, schema: text }, null, 2),
			);
		else io.stdout(text.replace(/\n$/, ''));
		return EXIT.results;
	},
};
