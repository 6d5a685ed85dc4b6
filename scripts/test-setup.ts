// Runs once before the test files (tap's `before`): builds the migrated template database that every
// test file clones, and removes test databases and bus streams left behind by crashed runs.
import { deleteStaleTestStreams, dropStaleTestDatabases, ensureTemplateDatabase } from '@signals/test-support'

const template = await ensureTemplateDatabase()
const dropped = await dropStaleTestDatabases()
const streams = await deleteStaleTestStreams()
process.stdout.write(`# test template database: ${template}${dropped ? ` (dropped ${dropped} stale test databases)` : ''}${streams ? ` (deleted ${streams} stale test streams)` : ''}\n`)
