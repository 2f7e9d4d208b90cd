import { parseQuery, renderSearchMarkdown } from '../../core/search/search';
import { boolFlag, numberFlag, queryText, UsageError } from '../args';
import { EXIT, limitFlags, type Command } from '../command';
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
	],
	flags: { ...limitFlags(10), ...ENGINE_FLAGS },
	run: async (args, io) => {
		const query = queryText(args);
		// A /regex/ that does not compile fails before the vault is read.
		const invalid = parseQuery(query).error;
		if (invalid !== null) throw new UsageError(invalid);
		const engine = await openEngineForCli(args, io);
		const result = await engine.search(query, { limit: numberFlag(args, 'limit') ?? 10 });
		if (boolFlag(args, 'json')) io.stdout(JSON.stringify(result, null, 2));
		else if (result.status !== 'failed') io.stdout(renderSearchMarkdown(result, engine.source.vaultPath).trimEnd());
		if (result.status === 'failed') {
			io.stderr(`vault-query search: ${result.error ?? 'failed'}`);
			return EXIT.couldNotSearch;
		}
		return result.results.length > 0 ? EXIT.results : EXIT.nothingMatched;
	},
};
