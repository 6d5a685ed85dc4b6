import { sql, type Kysely } from 'kysely'

// Prop-firm presets (issue 24 item 9, docs/risk-engine-config.md "Prop-firm presets"). The preset a
// configuration was last filled from: its id, firm and plan, and the values it set, so the page can say
// "Topstep 50K, changed: daily loss". null when no preset was applied. A plain save leaves it as it is.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('risk_engine_configs').addColumn('preset', 'jsonb').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE risk_engine_configs DROP COLUMN IF EXISTS preset`.execute(db)
}
