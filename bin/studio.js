#!/usr/bin/env node
// oclif would load semver at start to compare Node with package.json engines; npm checks engines at install.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
// git runs `studio merge driver %O %A %B %P` once per deck file it merges: no oclif for that one.
const args = process.argv.slice(2)
if (args.length === 6 && args[0] === 'merge' && args[1] === 'driver') import('../dist/merge-driver.js').then((driver) => driver.main(args.slice(2)))
else import('../dist/cli.js').then((cli) => cli.main(import.meta.url))
