/**
 * A schema note named by a path that may lie outside the vault (the CLI's `--schema`, the `read`
 * tool's `schema`): inside the vault it is read through the vault like the default; outside it is
 * read here, since the note source only reads the vault. A missing file fails closed, naming it.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { missingSchemaMessage, type SchemaFile } from '../core/schema/load';
import { errorCode, readRegularText } from './note-reader';

/** Where an absolute schema path points: a note of the vault (vault-relative, `/`-separated), or a file outside it. */
export type SchemaPlace = { inVault: string } | { outside: string };

/** Whether the absolute `path` lies inside the vault at `vaultPath` (its vault path), or outside it. */
export function placeOfSchema(vaultPath: string, path: string): SchemaPlace {
	const inVault = relative(vaultPath, path);
	if (inVault !== '' && !inVault.startsWith('..') && !isAbsolute(inVault))
		return { inVault: inVault.split(sep).join('/') };
	return { outside: path };
}

/** Reads a schema note outside the vault, or says why it cannot (`schema: …`, the parameter named). */
export async function readSchemaFile(path: string): Promise<SchemaFile | string> {
	try {
		// A regular file only: a FIFO given as the schema would otherwise wait for a writer forever.
		const [text, info] = await Promise.all([readRegularText(path), stat(path)]);
		return { path, text, mtime: info.mtimeMs };
	} catch (error) {
		return `schema: ${errorCode(error) === 'ENOENT' ? missingSchemaMessage(path) : `${path} could not be read (${errorCode(error)})`}`;
	}
}
