// Runs once before the test files (tap's `before`): builds the migrated template database that every
// test file clones, removes test databases and bus streams left behind by crashed runs, and builds the
// gateway's pages (the browser tests load them as served).
import { deleteStaleTestStreams, dropStaleTestDatabases, ensureTemplateDatabase } from '@signals/test-support'
import { buildWeb } from '../services/gateway/scripts/build-web.ts'

const template = await ensureTemplateDatabase()
const dropped = await dropStaleTestDatabases()
const streams = await deleteStaleTestStreams()
process.stdout.write(`# test template database: ${template}${dropped ? ` (dropped ${dropped} stale test databases)` : ''}${streams ? ` (deleted ${streams} stale test streams)` : ''}\n`)
const webStarted = performance.now()
const web = await buildWeb()
process.stdout.write(`# gateway pages built: ${web.files.length} files in ${Math.round(performance.now() - webStarted)} ms\n`)
