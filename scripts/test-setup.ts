// Runs once before the test files (tap's `before`): builds the migrated template database that every
// test file clones, and removes test databases left behind by crashed runs.
import { dropStaleTestDatabases, ensureTemplateDatabase } from '@signals/test-support'

const template = await ensureTemplateDatabase()
const dropped = await dropStaleTestDatabases()
process.stdout.write(`# test template database: ${template}${dropped ? ` (dropped ${dropped} stale test databases)` : ''}\n`)
