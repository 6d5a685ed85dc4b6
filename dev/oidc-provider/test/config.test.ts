import t from 'tap'
import { loadProviderConfig, providerOptions } from '../src/config.ts'

t.test('development defaults: port 3010, issuer http://localhost:3010, the platform client', async (t) => {
  const options = providerOptions(loadProviderConfig({}))
  t.equal(options.port, 3010)
  t.equal(options.issuer, 'http://localhost:3010')
  t.same(options.clients, [
    {
      client_id: 'signals-dev',
      client_secret: 'signals-dev-client-secret',
      redirect_uris: ['http://localhost:3000/auth/google/callback'],
    },
  ])
})

t.test('reads its variables', async (t) => {
  const options = providerOptions(
    loadProviderConfig({
      OIDC_PROVIDER_PORT: '4010',
      OIDC_ISSUER: 'http://127.0.0.1:4010',
      OIDC_CLIENT_ID: 'mine',
      OIDC_CLIENT_SECRET: 'my-secret-value',
      PUBLIC_URL: 'https://signals.example/',
    }),
  )
  t.equal(options.port, 4010)
  t.equal(options.issuer, 'http://127.0.0.1:4010')
  t.same(options.clients[0], {
    client_id: 'mine',
    client_secret: 'my-secret-value',
    redirect_uris: ['https://signals.example/auth/google/callback'],
  })
})

t.test('a bad port is named', async (t) => {
  t.throws(() => loadProviderConfig({ OIDC_PROVIDER_PORT: 'abc' }), /OIDC_PROVIDER_PORT/)
})
