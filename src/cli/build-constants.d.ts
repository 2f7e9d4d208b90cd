/**
 * The package's version from package.json, written into the CLI bundle by the build
 * (esbuild.config.mjs `define`) and into the tests by vitest.config.ts: one version source.
 */
declare const VAULT_QUERY_VERSION: string;
