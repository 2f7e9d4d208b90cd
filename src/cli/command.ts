import { boolFlag, listFlag, numberFlag, stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { hintsBeyond } from '../core/display';
import type { OperationOption, OptionValues } from '../core/query/registry';
import type { EngineConfig, VaultEngine } from '../core/engine/engine';
import type { NoteSource } from '../core/port';
import type { OpenVaultOptions } from '../node/vault-source';
import type { ProgressStream } from './progress';

/** A warm vault a long-lived process lends to a call (the background server, cli/server/serve.ts). */
export interface WarmLoan {
	/** The warm source when the call's vault folder and walk bounds are the server's; else null (the call opens the vault itself). */
	source(vaultPath: string, options: OpenVaultOptions): NoteSource | null;
	/** The warm engine over `source` when `config` is the server's; else null (the call gets an engine of its own over the warm source). */
	engine(source: NoteSource, config: EngineConfig): VaultEngine | null;
	/** The `--verbose` line that says the call was answered warm. */
	readonly line: string;
}

/** Where a command writes: injectable so tests can capture output without spawning a process. */
export interface CommandIO {
	stdout(text: string): void;
	stderr(text: string): void;
	/**
	 * Writes part of a streamed answer as is, no newline added (cli/stream.ts); resolves when the
	 * reader has taken enough that more may be written. Without it the parts go to `stdout` one by one.
	 * Bytes are printed as they are (their terminal escapes already spelled out); text is escaped
	 * like `stdout`'s.
	 */
	write?(part: string | Uint8Array): void | Promise<void>;
	/** The `Settings: …` lines runCli adds to a `--json` answer's limitations, for a streamed answer that writes its own. */
	settingsLimitations?(): string[];
	/** The working directory, the default vault. */
	cwd: string;
	/** Run `task` once the command has answered (runCli sets it; without it the task runs at once). */
	afterAnswer?: (task: () => Promise<void>) => void;
	/** A warm vault to answer from, when a server runs the call. */
	warm?: WarmLoan;
	/** The command has the process to itself (the executable, not a test or a server's call): a server started here defines a full collection (warm/collect.ts). */
	ownProcess?: boolean;
	/** Where a long read of the vault draws its progress line (the process's stderr; unset in a server's calls: see progress.ts). */
	progress?: ProgressStream;
	/** Runs another command line the way this one is run (runCli sets it; the `server` command serves calls with it). */
	runCli?: (argv: string[], io: CommandIO) => Promise<number>;
	/** A note on the settings (a data.json not used, an unknown profile): runCli adds it to the `--json` answer's limitations. */
	settingsNote?: (note: string) => void;
}

/** A CLI command: its flags, its help, and what it does. Returns the exit code. */
export interface Command {
	name: string;
	/** One line for the command list. */
	summary: string;
	/** Arguments after the command name, e.g. `<tag>`. */
	usage: string;
	/** Worked examples for `--help`. */
	examples: string[];
	/** Flags beyond the global ones: the one place a command declares what it takes. */
	flags: Record<string, FlagSpec>;
	/**
	 * The usage checks that read nothing (how many arguments, a value's form): a UsageError when the
	 * command line is refused. runCli runs them before `run`, and a call before it starts a background server.
	 */
	check?(args: ParsedArgs): void;
	/** Run with parsed arguments; the exit code is 0 (results), 1 (nothing matched) or 2 (could not search). */
	run(args: ParsedArgs, io: CommandIO): Promise<number>;
}

/** Exit codes of the CLI contract. */
export const EXIT = { results: 0, nothingMatched: 1, couldNotSearch: 2 } as const;

/** A command that could not run for a reason that is not a usage mistake (a vault path that is not a folder): exit 2 with the message. */
export class CommandFailure extends Error {}

/** Flags every vault command takes. */
export const GLOBAL_FLAGS: Record<string, FlagSpec> = {
	vault: { kind: 'string', value: 'PATH', help: 'the vault folder (default: the current directory)' },
	json: { kind: 'boolean', help: 'print the result object as JSON (the contract in docs/cli.md); failures too' },
	verbose: {
		kind: 'boolean',
		help: 'list every skipped file and limitation instead of a one-line summary; say on stderr what the index snapshot did',
	},
	profile: {
		kind: 'string',
		value: 'NAME',
		help: "a named profile's conventions (team-folders, or none); default: the one in the plugin's settings",
	},
	'config-dir': {
		kind: 'string',
		value: 'DIR',
		help: "Obsidian's config folder, where the plugin's settings are read (default .obsidian)",
	},
	help: { kind: 'boolean', help: 'show this help' },
	'max-files': {
		kind: 'number',
		value: 'N',
		range: [1, 1_000_000_000],
		help: 'stop when the vault holds more than N files (default 1000000)',
	},
	'max-depth': { kind: 'number', value: 'N', help: 'stop at folders nested more than N deep (default 64)' },
	'max-total-mb': { kind: 'number', value: 'N', help: 'stop when the notes hold more than N MB (default 2048)' },
	'allow-any-folder': {
		kind: 'boolean',
		help: 'open the file-system root or the home folder as a vault (refused otherwise)',
	},
	'no-cache': {
		kind: 'boolean',
		help: 'read the whole vault and leave the index snapshot alone (see vault-query index); implies --no-server',
	},
	quiet: {
		kind: 'boolean',
		help: 'no progress line on stderr while the vault is read (there is none when stderr is not a terminal, nor with --json)',
	},
	'no-server': {
		kind: 'boolean',
		help: "answer in this call, not from the vault's background server, and start none (see vault-query server)",
	},
};

/** `--limit N` with its default, and `--max-results` (the seed's name) as an alias of it. */
export function limitFlags(defaultLimit: number): Record<string, FlagSpec> {
	return {
		limit: { kind: 'number', value: 'N', range: [1, 100_000], help: `at most N results (default ${defaultLimit})` },
		'max-results': {
			kind: 'number',
			value: 'N',
			range: [1, 100_000],
			aliasOf: 'limit',
			help: 'the same as --limit',
		},
	};
}

const FLAG_KIND = { number: 'number', list: 'list', text: 'string', flag: 'boolean' } as const;

/** A ranked operation's options (core/query/registry.ts) as flags; `--limit` keeps `--max-results` as its alias. */
export function optionFlags(options: readonly OperationOption[]): Record<string, FlagSpec> {
	const flags: Record<string, FlagSpec> = {};
	for (const option of options) {
		const flag: FlagSpec = {
			kind: FLAG_KIND[option.kind],
			help: option.help,
			...(option.value ? { value: option.value } : {}),
			...(option.range ? { range: option.range } : {}),
		};
		flags[option.name] = flag;
		if (option.name === 'limit') flags['max-results'] = { ...flag, aliasOf: 'limit', help: 'the same as --limit' };
	}
	return flags;
}

/** The values of a ranked operation's options from the parsed flags. */
export function optionValues(args: ParsedArgs, options: readonly OperationOption[]): OptionValues {
	const read = { number: numberFlag, list: listFlag, text: stringFlag, flag: boolFlag } as const;
	return Object.fromEntries(options.map((option) => [option.name, read[option.kind](args, option.name)]));
}

/** What the CLI's text says to see the results past the limit. */
export const MORE = 'raise --limit to see more';

/** What every command's answer has: a status, and when it failed, why and what to try. */
export interface AnswerShape {
	status: string;
	error?: string;
	suggestions?: string[];
}

/**
 * Writes a command's answer, the one way every command does: the result object as JSON with
 * `--json` (a failure too), else `text()` for a success; a failure's error and hints go to
 * stderr. Returns the exit code: could not search when it failed, else whether `found` anything.
 */
export function emitAnswer(
	args: ParsedArgs,
	io: CommandIO,
	name: string,
	answer: AnswerShape,
	text: () => string,
	found = true,
): number {
	const failed = answer.status === 'failed';
	if (boolFlag(args, 'json')) io.stdout(JSON.stringify(answer, null, 2));
	else if (!failed) io.stdout(text());
	if (failed) {
		io.stderr(`vault-query ${name}: ${answer.error ?? 'failed'}`);
		for (const hint of hintsBeyond(answer.error, answer.suggestions)) io.stderr(`  ${hint}`);
		return EXIT.couldNotSearch;
	}
	return found ? EXIT.results : EXIT.nothingMatched;
}
