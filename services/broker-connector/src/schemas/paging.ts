import Type from 'typebox'

/** Paging shared by the list routes: newest first, `before` = the previous page's `nextCursor`. */
export const PageQuery = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'records per page (1-100)' }),
  before: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: "the previous page's nextCursor: only older records" }),
  ),
}

export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'pass as `before` for the next (older) page; null on the last page',
})
