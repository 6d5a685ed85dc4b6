import t from 'tap'
import { adminEmailSet } from '../src/index.ts'

t.test('ADMIN_EMAIL as a set: lower-cased, trimmed, blanks dropped', async (t) => {
  t.same([...adminEmailSet(' Boss@Example.com, ,ops@x.io ')].sort(), ['boss@example.com', 'ops@x.io'])
  t.equal(adminEmailSet('').size, 0)
})
