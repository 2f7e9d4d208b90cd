import type { FlagSpec } from './args';
import { GLOBAL_FLAGS, type Command } from './command';

/** Format flags as aligned help lines. */
function flagLines(flags: Record<string, FlagSpec>): string[] {
	const rows = Object.entries(flags).map(([name, spec]): [string, string] => [
		`${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`,
		spec.help,
	]);
	const width = Math.max(...rows.map(([left]) => left.length));
	return rows.map(([left, help]) => `  ${left.padEnd(width)}  ${help}`);
}

/** `vault-query <command> --help`. */
export function commandHelp(command: Command): string {
	return [
		`vault-query ${command.name} ${command.usage}`,
		'',
		`  ${command.summary}`,
		'',
		'Options:',
		...flagLines({ ...command.flags, ...GLOBAL_FLAGS }),
		'',
		'Examples:',
		...command.examples.map((e) => `  ${e}`),
		'',
		'Exit codes: 0 results, 1 nothing matched, 2 could not search (reason on stderr).',
	].join('\n');
}

/** `vault-query --help`. */
export function globalHelp(commands: Command[]): string {
	const width = Math.max(...commands.map((c) => c.name.length));
	return [
		'vault-query — ask a Markdown vault a question (Obsidian-compatible)',
		'',
		'Usage: vault-query <command> [arguments] [--vault PATH] [--json] [--limit N]',
		'',
		'Commands:',
		...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
		'',
		'Run "vault-query <command> --help" for its options and examples.',
		'Exit codes: 0 results, 1 nothing matched, 2 could not search (reason on stderr).',
	].join('\n');
}
