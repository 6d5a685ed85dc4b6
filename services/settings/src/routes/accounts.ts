import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { notFound } from '@signals/http-kit'
import type { CredentialsCipher } from '@signals/secrets'
import { findAccount, listAccounts } from '../repositories/broker-accounts.ts'
import { addAccount, sealNewLogin } from '../accounts/add-account.ts'
import { checkNewLogin } from '../accounts/login-check.ts'
import { changeAccount, removeAccount } from '../accounts/change-account.ts'
import { accountStatusOf, accountViewOf } from '../accounts/account-view.ts'
import { accountNotFound } from '../accounts/account-refusals.ts'
import { deliverFeedCommand } from '../feed/deliver-feed-command.ts'
import { AccountChangeBody, AccountParams, AccountResponse, AccountsResponse, DeletedAccountResponse, NewAccountBody } from '../schemas/accounts.ts'
import { accountRiskConfigRoutes } from './account-risk-config.ts'
import { isMissingUser, type RouteOptions } from './options.ts'
import type { FeedStatusReader } from '../feed/feed-status-reader.ts'

const tags = ['accounts']
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 500: ErrorBody }

/**
 * A trader's broker accounts (issue 22, docs/decisions/accounts.md): each a broker account id under a login,
 * with its own switches and risk configuration. The primary is the one the spec's single-account routes
 * address; a trader sees and changes only their own (another's answers 404).
 */
export interface AccountRouteOptions extends RouteOptions {
  cipher: CredentialsCipher
  feedStatus: FeedStatusReader
  feedDownGraceMs: number
  credentialsTestTimeoutMs: number
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteOptions> = async (app, options) => {
  await app.register(accountRiskConfigRoutes)

  const answer = async (userId: string, accountId: string, command: Parameters<typeof deliverFeedCommand>[1] | null) => {
    const feedCommand = command ? await deliverFeedCommand(app, command, options.feedPublishTimeoutMs) : null
    const account = await findAccount(app.db, userId, accountId)
    if (!account) throw accountNotFound() // removed in the meantime
    return { success: true as const, account: accountViewOf(account), feedCommand }
  }

  app.get(
    '/api/accounts',
    {
      schema: {
        tags,
        summary: "Your broker accounts, the primary first, each with its status (the primary's as /api/live-trading-status reports it)",
        response: { 200: AccountsResponse, ...errors },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      // The broker connection is the primary's (the connector keys it by user until it trades by account).
      const [rows, connection] = await Promise.all([listAccounts(app.db, userId), options.feedStatus.read(userId)])
      const now = new Date()
      return { success: true as const, accounts: rows.map((row) => ({ ...accountViewOf(row), status: accountStatusOf(row, connection, now, options.feedDownGraceMs) })) }
    },
  )

  app.post(
    '/api/accounts',
    {
      schema: {
        tags,
        summary:
          'Link a broker account under one of your logins or a new one (tried at the broker first: refused 400, not tried 503); the first links your primary account. Added switched off',
        body: NewAccountBody,
        response: { 200: AccountResponse, ...errors, 503: ErrorBody },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const login = sealNewLogin(options.cipher, userId, request.body)
      // A new login is tried at the broker first: a refused one is never stored (400), nor one not tried (503).
      if (login) await checkNewLogin(app.bus, userId, request.body.brokerAccountId, login, { timeoutMs: options.credentialsTestTimeoutMs, logger: app.log })
      const { id, command } = await addAccount(app.db, userId, request.body, login).catch((error: unknown) => {
        throw isMissingUser(error) ? notFound('User not found') : error
      })
      request.log.info({ accountId: id }, 'broker account linked')
      return answer(userId, id, command)
    },
  )

  app.patch(
    '/api/accounts/:id',
    {
      schema: {
        tags,
        summary: "Rename an account or turn its live-trading and auto-place switches (an additional account cannot go live yet: 409 account_trading_not_available)",
        params: AccountParams,
        body: AccountChangeBody,
        response: { 200: AccountResponse, ...errors },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const command = await changeAccount(app.db, userId, request.params.id, request.body)
      if (command) request.log.info({ action: command.action, commandId: command.command_id }, 'live trading changed')
      return answer(userId, request.params.id, command)
    },
  )

  app.delete(
    '/api/accounts/:id',
    { schema: { tags, summary: 'Remove an additional account (the primary stays: 409 primary_account)', params: AccountParams, response: { 200: DeletedAccountResponse, ...errors } } },
    async (request) => {
      const removed = await removeAccount(app.db, request.identity.userId, request.params.id)
      request.log.info({ accountId: removed.id }, 'broker account removed')
      return { success: true as const, account: accountViewOf(removed) }
    },
  )
}
