/**
 * Build: the bundled CLI (dist/cli.js, with lazily loaded chunks) and one precompiled ajv validator
 * per action input (dist/validators/<id>.js), so a command compiles no schema and loads no ajv.
 * Runs on `npm install` (prepare) and before the tests.
 */
import { build } from 'esbuild'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { ACTIONS } from '../src/actions/index.js'
import { AJV_OPTIONS, validatorFile } from '../src/core/validate.js'
import { MODEL_SCHEMAS, validationSchema } from '../src/model/check.js'
import { PAGE_ACTIONS } from '../src/transports/http/page.js'
import { COMMAND_INDEX_FILE, commandIndexSource } from './command-index.js'

type ManifestCommand = { summary?: string; description?: string; examples?: unknown; flags?: Record<string, { description?: string }>; args?: Record<string, { description?: string }> }

const root = new URL('..', import.meta.url).pathname
const dist = join(root, 'dist')
rmSync(dist, { recursive: true, force: true })
mkdirSync(dist, { recursive: true })

const started = Date.now()
// The logo catalogue index (src/media/logo-index.ts): rasterizing its drawings for the reads test
// takes a few seconds on sharp's threads, so it runs beside the bundling below.
const logoIndex = import('../src/media/logo-index.js').then(({ buildPackageIndex }) => buildPackageIndex())
const banner = [
  "import { createRequire as __studioCreateRequire } from 'node:module';",
  "import { fileURLToPath as __studioFileURLToPath } from 'node:url';",
  'const require = __studioCreateRequire(import.meta.url);',
  'globalThis.__studioRequire ??= require;',
  'const __filename = __studioFileURLToPath(import.meta.url);',
  "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));",
].join(' ')

/**
 * oclif requires a few libraries at the top of its modules that a run of one command rarely uses
 * (ejs renders help, tinyglobby and minimatch find plugins, lilconfig reads rc files, semver checks
 * versions; cli-spinners and ansi-escapes draw its spinner; wrap-ansi, string-width, widest-line,
 * indent-string and clean-stack lay out help and error text). Each becomes a proxy that requires the
 * real package from node_modules on first use, so a start compiles none of them unless it needs them.
 */
const LAZY_FOR_OCLIF = [
  'ejs', 'tinyglobby', 'minimatch', 'lilconfig', 'semver', 'cli-spinners', 'ansi-escapes', 'wrap-ansi', 'string-width', 'widest-line',
  'indent-string', 'clean-stack',
]
const lazyOclifDeps = {
  name: 'lazy-oclif-deps',
  setup(b: import('esbuild').PluginBuild) {
    b.onResolve({ filter: new RegExp(`^(${LAZY_FOR_OCLIF.join('|')})$`) }, (args) =>
      args.importer.includes('/@oclif/core/') ? { path: args.path, namespace: 'lazy-oclif-dep' } : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'lazy-oclif-dep' }, (args) => ({
      loader: 'js',
      contents: `const spec = ${JSON.stringify(args.path)}; let real;
const load = () => (real ??= globalThis.__studioRequire(spec));
module.exports = new Proxy(function () {}, {
  get(_, key) { if (key === '__esModule') return undefined; const m = load(); const v = m[key]; return typeof v === 'function' ? v.bind(m) : v },
  has(_, key) { return key in load() },
  apply(_, self, args) { return load().apply(self, args) },
});`,
    }))
  },
}

// The CLI's command index (which module declares each command's action), written before the bundle
// that imports it; rewritten only when the table changed.
const indexSource = await commandIndexSource(root)
const indexFile = join(root, COMMAND_INDEX_FILE)
if (!existsSync(indexFile) || readFileSync(indexFile, 'utf8') !== indexSource) writeFileSync(indexFile, indexSource)

const cliBuild = await build({
  // merge-driver: `studio merge driver` without oclif (git starts it once per file it merges).
  // codec-child: the codec process (src/media/codec.ts), started per job beside this folder.
  // not-found: oclif's command_not_found hook (package.json oclif.hooks), loaded only when no command matched.
  entryPoints: { cli: join(root, 'src/cli.ts'), 'not-found': join(root, 'src/transports/cli/not-found.ts'), 'merge-driver': join(root, 'src/merge-driver-entry.ts'), 'codec-child': join(root, 'src/media/codec-child.ts') },
  plugins: [lazyOclifDeps],
  logOverride: { 'unsupported-require-call': 'silent' },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: banner },
  // oclif can load TypeScript to run .ts plugins in development; we never do, and bundling it
  // would put 3.5 MB into every start-up.
  // Heavy or rarely used packages stay in node_modules and load on first use, so a command pays
  // only for what it runs (and a test can see what a command loaded).
  external: [
    'typescript', 'ts-node', 'archiver', 'yauzl', 'ajv', 'ajv-formats', 'sharp', 'playwright-core',
    'pptxgenjs', 'pdf-lib', '@modelcontextprotocol/sdk', 'undici', 'jsdom', 'dompurify',
    // better-sqlite3 finds its native binding relative to its own folder (the identity database).
    'better-sqlite3',
    // ws requires its optional native helpers (bufferutil, utf-8-validate) inside try blocks.
    'ws',
    // A native addon finds its .node file beside its own package; passkeys load only on /auth/passkey.
    'better-sqlite3', '@simplewebauthn/server',
    // The PostgreSQL client (STUDIO_DATABASE_URL) and the S3 client (STUDIO_S3_BUCKET) load only where set.
    'pg', '@aws-sdk/client-s3', '@aws-sdk/s3-presigned-post',
  ],
  minify: !process.env.STUDIO_BUILD_NOMINIFY,
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  metafile: true,
})
// What each chunk holds (source module → bytes): the start-up guard (test/e2e/startup) names the modules a read evaluates from it.
writeFileSync(join(dist, 'meta.json'), JSON.stringify(cliBuild.metafile))

// The page (src/page): Preact components bundled for the browser into dist/page/app.js and app.css,
// served by `studio serve` from the package (never a CDN).
await build({
  entryPoints: { app: join(root, 'src/page/main.tsx') },
  outdir: join(dist, 'page'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome111', 'firefox111', 'safari16.4'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: !process.env.STUDIO_BUILD_NOMINIFY,
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
})

// Validators: ajv standalone code per schema, then bundled so each file is self-contained.
const tmp = mkdtempSync(join(tmpdir(), 'studio-validators-'))
const ajv = new (Ajv as unknown as typeof Ajv.default)({ ...AJV_OPTIONS, code: { source: true, esm: true } })
;(addFormats as unknown as (a: unknown) => void)(ajv)
const schemas: [string, object][] = [...[...ACTIONS, ...PAGE_ACTIONS].map((a) => [a.id, validationSchema(a.input)] as [string, object]), ...MODEL_SCHEMAS]
const entries: string[] = []
for (const [key, schema] of schemas) {
  const validate = ajv.compile(schema)
  const file = join(tmp, validatorFile(key).replace(/\.js$/, '.mjs'))
  writeFileSync(file, (standaloneCode as unknown as (a: unknown, v: unknown) => string)(ajv, validate))
  entries.push(file)
}
await build({
  entryPoints: entries,
  outdir: join(dist, 'validators'),
  outExtension: { '.js': '.js' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'runtime/[name]-[hash]',
  banner: { js: banner },
  minify: true,
  logLevel: 'warning',
  nodePaths: [join(root, 'node_modules')],
})
rmSync(tmp, { recursive: true, force: true })

// Every shipped face's advance widths, cut from the font files, so measuring text never loads fontkit at run time.
const { buildMetricsTable } = await import('../src/layout/metrics.js')
mkdirSync(join(dist, 'fonts'), { recursive: true })
writeFileSync(join(dist, 'fonts', 'metrics.json'), JSON.stringify(buildMetricsTable()))

const logos = await logoIndex
mkdirSync(join(dist, 'logos'), { recursive: true })
writeFileSync(join(dist, 'logos', 'index.json'), JSON.stringify(logos))

// oclif.manifest.json: every command's flags and help, so a run loads only the command it runs.
rmSync(join(root, 'oclif.manifest.json'), { force: true })
// Every command class, for oclif to describe (a run of the CLI loads only its own).
await ((await import(pathToFileURL(join(dist, 'cli.js')).href)) as { prepareCommands(argv: 'all'): Promise<void> }).prepareCommands('all')
const { Config } = await import('@oclif/core')
const config = await Config.load(root)
const plugin = config.getPluginsList().find((p) => p.root === config.root) as unknown as { manifest: { commands: Record<string, ManifestCommand> } }
// Without the help text, which help takes from the command's class (src/cli-help.ts): every start
// parses this file, and the text was more than half of it.
for (const command of Object.values(plugin.manifest.commands)) {
  if (command.summary) delete command.description
  delete command.examples
  for (const part of [...Object.values(command.flags ?? {}), ...Object.values(command.args ?? {})]) delete part.description
}
writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify(plugin.manifest))
console.error(`built dist/cli.js, ${entries.length} validators and ${logos.marks.length} logos in ${Date.now() - started} ms`)
