import { parseQuery, renderSearchMarkdown } from '../../core/search/search';
import { boolFlag, listFlag, numberFlag, queryText, UsageError } from '../args';
import { EXIT, limitFlags, MORE, type Command } from '../command';
import { ENGINE_FLAGS, openEngineForCli } from '../vault';

/** `vault-query search "<query>" [--limit N] [--json]`: ranked search with the seed's tiers (seed 003). */
export const searchCommand: Command = {
	name: 'search',
	summary: 'ranked search in any language: filters (tag:, path:, file:, [key:value], "phrase", -word, /regex/) plus free text',
	usage: '"<query>"',
	examples: [
		'vault-query search "front-end career developing suggestion"',
		'vault-query search "XSS 攻擊防禦" --limit 5',
		'vault-query search "tag:#security [status:open] xss" --json',
		'vault-query search -- "-tag:draft sync"',
		'vault-query search "weekly review" --folders Notes,Daily',
	],
	flags: { ...limitFlags(10), folders: { kind: 'list', value: 'A,B', help: 'search only these folders (repeatable or comma-separated)' }, ...ENGINE_FLAGS },
	run: async (args, io) => {
		const query = queryText(args);
		// A /regex/ that does not compile fails before the vault is read.
		const invalid = parseQuery(query).error;
		if (invalid !== null) throw new UsageError(invalid);
		const engine = await openEngineForCli(args, io);
		const folders = listFlag(args, 'folders');
		const result = await engine.search(query, { limit: numberFlag(args, 'limit') ?? 10, ...(folders.length > 0 ? { folders } : {}) });
		if (boolFlag(args, 'json')) io.stdout(JSON.stringify(result, null, 2));
		else if (result.status !== 'failed') io.stdout(renderSearchMarkdown(result, { vaultLabel: engine.source.vaultPath, more: MORE, verbose: boolFlag(args, 'verbose') }).trimEnd());
		if (result.status === 'failed') {
			io.stderr(`vault-query search: ${result.error ?? 'failed'}`);
			return EXIT.couldNotSearch;
		}
		return result.results.length > 0 ? EXIT.results : EXIT.nothingMatched;
	},
};
