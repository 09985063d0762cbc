#!/usr/bin/env node
// oclif would load semver at start to compare Node with package.json engines; npm checks engines at install.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
import('../dist/cli.js').then((cli) => cli.main(import.meta.url))
