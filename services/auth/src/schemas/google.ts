import Type from 'typebox'

export const Redirect = { 302: Type.Null({ description: 'redirect' }) }

export const GoogleStartQuery = Type.Object({ returnTo: Type.Optional(Type.String({ maxLength: 512 })) })

export const GoogleCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 1024 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
})
