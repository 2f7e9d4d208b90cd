import { parseArgs, UsageError, wantsJson } from './args';
import { CommandFailure, EXIT, GLOBAL_FLAGS, type Command, type CommandIO } from './command';
import { COMMANDS } from './commands/index';
import { commandHelp, globalHelp } from './help';
import { failureObject } from '../core/failure';
import { escapeTerminal } from '../core/display';
import { closest } from '../core/suggest';
import { CacheLimitError } from '../node/snapshot/file-store';
import { checkSettingsFlags } from './config';

export type { FailureObject } from '../core/failure';

/** Report a failure: one line (plus usage) on stderr, and with `--json` the failure object on stdout. Returns exit 2. */
function fail(io: CommandIO, json: boolean, command: Command | null, message: string, usage: boolean): number {
	const prefix = command ? `vault-query ${command.name}` : 'vault-query';
	const usageLine = command && usage ? `vault-query ${command.name} ${command.usage}` : undefined;
	io.stderr(`${prefix}: ${message}${usageLine ? `\nusage: ${usageLine}  (see --help)` : ''}`);
	if (json) {
		io.stdout(JSON.stringify(failureObject(command?.name ?? null, message, usageLine), null, 2));
	}
	return EXIT.couldNotSearch;
}

/**
 * A `--json` answer with the notes on the settings among its limitations: the answer was given
 * with defaults where data.json could not be used, and a script reading only stdout must learn it.
 */
function withSettingsNotes(text: string, notes: string[]): string {
	if (notes.length === 0) return text;
	let answer: unknown;
	try {
		answer = JSON.parse(text);
	} catch {
		return text;
	}
	if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return text;
	const object = answer as Record<string, unknown>;
	const before = Array.isArray(object.limitations) ? (object.limitations as unknown[]) : [];
	const added = notes.map((note) => `Settings: ${note}`).filter((line) => !before.includes(line));
	return JSON.stringify({ ...object, limitations: [...before, ...added] }, null, 2);
}

/**
 * Whether runCli refuses `argv` as a usage error before reading anything: no command or an unknown
 * one, an unknown option, a value that is empty, repeated or out of range, an unknown `--profile` or
 * `--sort`, arguments missing or extra (the command's `check`). A call that finds no background server checks this before starting one (bin.ts): a
 * command line that is refused starts no server, and runCli then says why.
 */
export function refusedUsage(argv: readonly string[]): boolean {
	const [name, ...rest] = argv;
	const command = COMMANDS.find((c) => c.name === name);
	if (command === undefined) return true;
	try {
		const args = parseArgs(rest, { ...command.flags, ...GLOBAL_FLAGS });
		if (args.flags.help === true) return false;
		checkSettingsFlags(args);
		command.check?.(args);
		return false;
	} catch (error) {
		if (error instanceof UsageError) return true;
		throw error;
	}
}

/** Run the CLI with `argv` (without node and script) and return the exit code. Never calls process.exit, never throws. */
export async function runCli(argv: string[], raw: CommandIO): Promise<number> {
	const [name, ...rest] = argv;
	const json = wantsJson(argv);
	// A safety net under the renderers: no vault text reaches the terminal as a control sequence (JSON escapes its own).
	const later: (() => Promise<void>)[] = [];
	const settingsNotes: string[] = [];
	const io: CommandIO = {
		cwd: raw.cwd,
		warm: raw.warm,
		progress: raw.progress,
		ownProcess: raw.ownProcess,
		runCli,
		afterAnswer: (task) => later.push(task),
		settingsNote: (note) => settingsNotes.push(note),
		stdout: json
			? (text) => raw.stdout(withSettingsNotes(text, settingsNotes))
			: (text) => raw.stdout(escapeTerminal(text)),
		stderr: (text) => raw.stderr(escapeTerminal(text)),
		write: (part) => {
			// Bytes come from an answer that escaped what it shows itself (cli/stream.ts): no second pass over them.
			if (typeof part !== 'string')
				return raw.write ? raw.write(part) : raw.stdout(Buffer.from(part).toString('utf8').replace(/\n$/, ''));
			const shown = json ? part : escapeTerminal(part);
			return raw.write ? raw.write(shown) : raw.stdout(shown.replace(/\n$/, ''));
		},
		settingsLimitations: () => settingsNotes.map((note) => `Settings: ${note}`),
	};
	if (name === undefined) {
		// No command is a usage error: the help goes to stderr so a script's stdout stays clean.
		io.stderr(globalHelp(COMMANDS));
		return EXIT.couldNotSearch;
	}
	if (name === '--help' || name === '-h' || name === 'help') {
		io.stdout(globalHelp(COMMANDS));
		return EXIT.results;
	}
	if (name === '--version') {
		io.stdout(VAULT_QUERY_VERSION);
		return EXIT.results;
	}
	const command = COMMANDS.find((c) => c.name === name);
	if (!command && name.startsWith('-'))
		return fail(
			io,
			json,
			null,
			`"${name}" before the command; options go after it: vault-query <command> [arguments] [options]`,
			false,
		);
	if (!command) {
		const near = closest(
			name,
			COMMANDS.map((c) => c.name),
		);
		return fail(
			io,
			json,
			null,
			`unknown command "${name}"${near.length > 0 ? `; did you mean "${near[0]}"?` : ''} (see vault-query --help)`,
			false,
		);
	}
	try {
		const args = parseArgs(rest, { ...command.flags, ...GLOBAL_FLAGS });
		if (args.flags.help === true) {
			io.stdout(commandHelp(command));
			return EXIT.results;
		}
		for (const note of args.notes ?? []) io.stderr(`vault-query ${command.name}: ${note}`);
		command.check?.(args);
		const code = await command.run(args, io);
		// Saving the index snapshot waits until the answer is out (each task reports its own failures).
		for (const task of later.splice(0)) await task();
		return code;
	} catch (error) {
		if (error instanceof UsageError) return fail(io, json, command, error.message, true);
		if (error instanceof CommandFailure || error instanceof CacheLimitError)
			return fail(io, json, command, error.message, false);
		// A bug, not bad input: keep the stack on stderr for the report, and the JSON contract on stdout.
		const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
		io.stderr(`vault-query ${command.name}: internal error: ${detail}`);
		if (json)
			io.stdout(
				JSON.stringify(
					failureObject(
						command.name,
						`internal error: ${error instanceof Error ? error.message : String(error)}`,
					),
					null,
					2,
				),
			);
		return EXIT.couldNotSearch;
	}
}
