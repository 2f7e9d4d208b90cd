/**
 * The plugin's settings: one model for both faces, kept in core (src/core/config/settings.ts) so
 * the CLI reads the same `data.json` with the same rules.
 */
export { DEFAULT_PLUGIN_SETTINGS, engineConfigOf, mergeSettings, parseSynthesisMarker } from '../core/config/settings';
export type { PluginSettings } from '../core/config/settings';
