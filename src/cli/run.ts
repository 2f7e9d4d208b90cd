import { parseArgs, UsageError } from './args';
import { EXIT, GLOBAL_FLAGS, type CommandIO } from './command';
import { COMMANDS } from './commands/index';
import { commandHelp, globalHelp } from './help';
import { closest } from '../core/suggest';
import { VERSION } from './version';

export { VERSION } from './version';

/** Run the CLI with `argv` (without node and script) and return the exit code. Never calls process.exit. */
export async function runCli(argv: string[], io: CommandIO): Promise<number> {
	const [name, ...rest] = argv;
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
		io.stdout(VERSION);
		return EXIT.results;
	}
	const command = COMMANDS.find((c) => c.name === name);
	if (!command) {
		const near = closest(name, COMMANDS.map((c) => c.name));
		io.stderr(`vault-query: unknown command "${name}"${near.length > 0 ? `; did you mean "${near[0]}"?` : ''} (see vault-query --help)`);
		return EXIT.couldNotSearch;
	}
	try {
		const args = parseArgs(rest, { ...command.flags, ...GLOBAL_FLAGS });
		if (args.flags.help === true) {
			io.stdout(commandHelp(command));
			return EXIT.results;
		}
		return await command.run(args, io);
	} catch (error) {
		if (error instanceof UsageError) {
			io.stderr(`vault-query ${command.name}: ${error.message}\nusage: vault-query ${command.name} ${command.usage}  (see --help)`);
			return EXIT.couldNotSearch;
		}
		throw error;
	}
}
