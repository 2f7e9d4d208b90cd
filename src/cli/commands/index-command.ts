import { peekSnapshotHeader, SnapshotFormatError } from '../../core/snapshot/codec';
import { nodeCodecHost } from '../../node/snapshot/codec-host';
import { FileSnapshotStore } from '../../node/snapshot/file-store';
import { openCachedVault } from '../../node/snapshot/open-cached';
import { recordBuild } from '../../node/snapshot/build-log';
import { ProgressLine } from '../progress';
import { boolFlag, UsageError, type ParsedArgs } from '../args';
import { CommandFailure, EXIT, type Command, type CommandIO } from '../command';
import { describeSnapshot, engineConfigFrom, TOOL_STAMP, vaultKeyOf } from '../vault';
import { VaultEngine } from '../../core/engine/engine';
import { indexPartsOf, PART_KINDS, partKey } from '../../node/snapshot/index-parts';
import { describeServer, serverStatus, stopServer } from './server';
import { exited, killQuietly } from '../server/pid-file';
import { SERVER_ENV, serverOff } from '../server/protocol';

/** `12.3 MB` (10^6 bytes). */
function mb(bytes: number): string {
	return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** `index --status`: where the snapshot is, how big, what it holds, whether this build can use it. */
async function status(store: FileSnapshotStore, key: string, args: ParsedArgs, io: CommandIO): Promise<number> {
	const info = await store.info(key);
	if (info === null) {
		if (boolFlag(args, 'json'))
			io.stdout(JSON.stringify({ status: 'success', vault: key, snapshot: null, cacheDir: store.dir }, null, 2));
		else io.stdout(`No index snapshot for ${key} (cache folder ${store.dir}); the next query builds one.`);
		return EXIT.nothingMatched;
	}
	let header = null;
	let problem: string | null = null;
	try {
		const bytes = await store.load(key);
		if (bytes !== null) header = peekSnapshotHeader(bytes, nodeCodecHost);
	} catch (error) {
		if (!(error instanceof SnapshotFormatError)) throw error;
		problem = error.message;
	}
	if (header !== null && header.tool !== TOOL_STAMP)
		problem = `saved by another build (${header.tool}); the next query rebuilds it`;
	if (boolFlag(args, 'json')) {
		io.stdout(
			JSON.stringify(
				{
					status: 'success',
					vault: key,
					server: await serverStatus(key),
					snapshot: {
						...info,
						savedAt: new Date(info.savedAt).toISOString(),
						notes: header?.notes ?? null,
						files: header?.files ?? null,
						markdownBytes: header?.markdownBytes ?? null,
						problem,
					},
					cacheDir: store.dir,
					cacheLimitBytes: store.limit,
				},
				null,
				2,
			),
		);
		return EXIT.results;
	}
	const lines = [
		`Index snapshot of ${key}`,
		`  file:     ${info.location}`,
		`  size:     ${mb(info.bytes)}${header ? ` (the vault's notes: ${mb(header.markdownBytes)})` : ''}; cache bound ${mb(store.limit)}`,
		`  saved:    ${new Date(info.savedAt).toISOString()}`,
	];
	if (header)
		lines.push(`  holds:    ${header.notes} notes of ${header.files} files — parsed metadata and link maps`);
	for (const kind of PART_KINDS) {
		const part = await store.info(partKey(key, kind));
		lines.push(
			`  ${kind === 'search' ? 'search: ' : 'trigrams:'}  ${part ? `${mb(part.bytes)} at ${part.location}` : `not built yet (${kind === 'search' ? 'the first search or pack' : 'the first grep or text-search'} builds it)`}`,
		);
	}
	if (problem) lines.push(`  unusable: ${problem}`);
	const server = await serverStatus(key);
	lines.push(
		`  server:   ${server ? describeServer(server) : serverOff() ? `off (${SERVER_ENV}=off)` : 'none running (the next query starts one; see vault-query server)'}`,
	);
	io.stdout(lines.join('\n'));
	return EXIT.results;
}

/** How long `index --clear` waits for a signalled server to exit before it kills it. */
const CLEAR_WAIT_MS = 5000;

/** `vault-query index [--status | --clear]`: build or refresh the vault's snapshot, show it, or delete it. */
export const indexCommand: Command = {
	name: 'index',
	summary:
		"build or refresh the vault's index snapshot (kept in the user's cache folder, never in the vault); --status, --clear",
	usage: '[--status | --clear]',
	examples: ['vault-query index', 'vault-query index --status', 'vault-query index --clear'],
	flags: {
		status: { kind: 'boolean', help: 'show where the snapshot is, its size and what it holds' },
		clear: { kind: 'boolean', help: 'delete the snapshot (the next query builds it again)' },
	},
	run: async (args, io) => {
		if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
		if (boolFlag(args, 'status') && boolFlag(args, 'clear'))
			throw new UsageError('give --status or --clear, not both');
		if (boolFlag(args, 'no-cache'))
			throw new UsageError('--no-cache leaves the snapshot alone; index is the command that builds it');
		const vault = await vaultKeyOf(args, io);
		const store = new FileSnapshotStore();
		if (boolFlag(args, 'status')) return status(store, vault.key, args, io);
		if (boolFlag(args, 'clear')) {
			// The server holds the snapshot open and saves index parts: it goes first, or it would write them back.
			const serverStopped = await stopServer(vault.key);
			if (serverStopped.how === 'signalled' && !(await exited(serverStopped.pid, CLEAR_WAIT_MS))) {
				// Busy in a long read, it would save its parts when done: a cache is not worth waiting minutes for.
				killQuietly(serverStopped.pid);
				io.stderr(
					`vault-query index: the background server (pid ${serverStopped.pid}) did not stop within ${CLEAR_WAIT_MS / 1000} s; it was killed`,
				);
			}
			if (serverStopped.how !== 'none')
				io.stderr(`vault-query index: stopped the background server of ${vault.key}`);
			const removed = await store.clear(vault.key);
			for (const kind of PART_KINDS) await store.clear(partKey(vault.key, kind));
			if (boolFlag(args, 'json'))
				io.stdout(
					JSON.stringify(
						{ status: 'success', vault: vault.key, removed, server_stopped: serverStopped.how !== 'none' },
						null,
						2,
					),
				);
			else
				io.stdout(
					removed
						? `Deleted the index snapshot of ${vault.key}.`
						: `No index snapshot of ${vault.key} to delete.`,
				);
			return EXIT.results;
		}
		// A re-index of a large vault takes a while: a progress line on a terminal says where it is.
		const line = new ProgressLine(
			io.progress ?? { write: () => undefined },
			!boolFlag(args, 'json') && !boolFlag(args, 'quiet'),
		);
		try {
			return await reindex(vault, store, args, io, line);
		} finally {
			line.end();
		}
	},
};

/** Reads the vault through its snapshot and saves it with the search and trigram indexes; the phases drawn on `line`. */
async function reindex(
	vault: { path: string; key: string },
	store: FileSnapshotStore,
	args: ParsedArgs,
	io: CommandIO,
	line: ProgressLine,
): Promise<number> {
	const opened = await openCachedVault(vault.path, {
		store,
		tool: TOOL_STAMP,
		progress: (read, total) => line.update('reading the vault', read, total),
	});
	if (opened.report.state === 'built') recordBuild(opened.source.vaultPath, opened.report.notes);
	const { report } = opened;
	if (report.rebuildReason !== null && boolFlag(args, 'verbose'))
		io.stderr(`vault-query: ${report.rebuildReason}; rebuilt from the vault`);
	if (report.saveError !== null) throw new CommandFailure(`the snapshot could not be saved: ${report.saveError}`);
	// The ranked-search and trigram indexes too, so the next search, pack or grep starts warm.
	const parts = indexPartsOf(opened, store, TOOL_STAMP, true);
	const engine = new VaultEngine(opened.source, await engineConfigFrom(args, io));
	engine.saved = parts;
	line.update('building the search index', 0, 0);
	await engine.searchIndex();
	line.update('building the trigram index', 0, 0);
	await engine.trigramIndex();
	line.update('saving the indexes', 0, 0);
	const partError = await parts.save(engine, undefined, true);
	line.end(); // the answer follows on a clean line
	if (partError !== null) throw new CommandFailure(partError);
	const info = await store.info(vault.key);
	const size = info?.bytes ?? 0;
	const indexBytes: Record<string, number> = {};
	for (const kind of PART_KINDS) indexBytes[kind] = (await store.info(partKey(vault.key, kind)))?.bytes ?? 0;
	const totalBytes = size + Object.values(indexBytes).reduce((a, b) => a + b, 0);
	if (boolFlag(args, 'json'))
		io.stdout(
			JSON.stringify(
				{
					status: 'success',
					vault: vault.key,
					...report,
					ms: Math.round(report.ms),
					snapshotBytes: size,
					indexBytes,
					totalBytes,
					location: info?.location ?? null,
				},
				null,
				2,
			),
		);
	else
		io.stdout(
			`${describeSnapshot(report).replace(/^vault-query: /, '')}\n${report.notes} notes (${mb(report.markdownBytes)} of Markdown); snapshot ${mb(size)} at ${info?.location ?? '?'}; search index ${mb(indexBytes.search ?? 0)}, trigram index ${mb(indexBytes.trigrams ?? 0)} beside it (${mb(totalBytes)} in all)`,
		);
	return EXIT.results;
}
