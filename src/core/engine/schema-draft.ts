/** The engine's `schemaDraft` operation: a schema note drafted from the frontmatter of the notes in scope. */
import type { NoteSource } from '../port';
import { draftSchema } from '../schema/draft';
import { renderSchemaDraft } from '../schema/draft-text';
import { resolveScope } from '../scope';
import type { EngineSettings } from '../settings';

/** The drafted schema note as Markdown the reader accepts as it stands, narrowed to `folders`; nothing is written. */
export async function schemaDraftOf(
	source: NoteSource,
	settings: EngineSettings,
	schemaPath: string,
	folders?: string[],
): Promise<string> {
	const scope = resolveScope(source, settings, folders);
	const draft = await draftSchema(source, scope.notes);
	const vaultName =
		source.vaultPath
			.replace(/[/\\]+$/, '')
			.split(/[/\\]/)
			.pop() ?? source.vaultPath;
	return renderSchemaDraft(draft, { vaultName, configDir: source.configDir, schemaPath });
}
