// The operator's console: users awaiting approval, bans, the audit log and the intake log, each a module of
// its own. Every value reaches the page as text; the admin service refuses anyone but an administrator.
import { loadAudit, wireAudit } from './console-audit.ts'
import { loadBans, wireBans } from './console-bans.ts'
import { loadIntake, wireIntake } from './console-intake.ts'
import { loadPending } from './console-pending.ts'
import { showConsoleError } from './console-table.ts'

wireBans()
wireAudit()
wireIntake()
Promise.all([loadPending(), loadBans(), loadAudit(), loadIntake(false)]).catch(showConsoleError)
