// The broker's own credentials fields, drawn from the broker registry (`GET /api/brokers`): each broker's
// label in the `cred-broker` select and the chosen broker's fields in their order under `broker-fields`, so a
// broker added to the registry needs nothing in the pages. Shared by the home page's credentials card and the
// Accounts page's "new login" form (each page has one such form).
import type { ResponseOf } from './api-routes.ts'
import { byId, element } from './dom.ts'

export type Broker = ResponseOf<'GET /api/brokers'>['brokers'][number]
type Field = Broker['fields'][number]

let brokers: readonly Broker[] = []

const value = (id: string) => byId<HTMLInputElement | HTMLSelectElement>(id).value
const fieldId = (field: Field) => `cred-${field.name}`
const chosen = (): Broker | undefined => brokers.find((broker) => broker.name === value('cred-broker'))

/** The registry's label of a broker name (the name itself when the registry does not know it). */
export const brokerLabel = (name: string): string => brokers.find((known) => known.name === name)?.label ?? name

/** One input of the chosen broker's form, with its label and help as the registry gives them. */
function fieldInput(field: Field): HTMLElement {
  const box = element('div', undefined, 'broker-field')
  const input = element('input')
  input.id = fieldId(field)
  input.name = field.name
  input.type = field.secret ? 'password' : 'text'
  input.required = field.required
  if (field.maxLength !== null) input.maxLength = field.maxLength
  // Never filled by the browser from elsewhere: these are the broker's, not this site's, secrets.
  input.autocomplete = field.secret ? 'new-password' : 'off'
  // The help beside the label, not in it: the input's name stays short; the help is its description.
  const label = element('label', field.required ? field.label : `${field.label} (optional)`)
  label.htmlFor = input.id
  box.append(label, input)
  if (field.help !== '') {
    const help = element('span', field.help, 'help muted')
    help.id = `${input.id}-help`
    input.setAttribute('aria-describedby', help.id)
    box.append(help)
  }
  return box
}

/** Draws the chosen broker's fields, keeping what was typed in a field both brokers have. */
export function drawFields(): void {
  const box = byId('broker-fields')
  const typed = new Map([...box.querySelectorAll('input')].map((input) => [input.name, input.value]))
  box.replaceChildren(...(chosen()?.fields ?? []).map(fieldInput))
  for (const input of box.querySelectorAll('input')) input.value = typed.get(input.name) ?? ''
}

export function drawBrokers(list: readonly Broker[]): void {
  brokers = list
  byId('cred-broker').replaceChildren(...list.map((broker) => Object.assign(element('option', broker.label), { value: broker.name })))
  drawFields()
}

/** The chosen broker's fields for a body: secrets as typed, other text trimmed, empty optional fields left out. */
export function readBrokerFields(): Record<string, string> {
  const body: Record<string, string> = {}
  for (const field of chosen()?.fields ?? []) {
    const typed = field.secret ? value(fieldId(field)) : value(fieldId(field)).trim()
    if (typed !== '' || field.required) body[field.name] = typed
  }
  return body
}

export function clearSecrets(): void {
  for (const field of chosen()?.fields ?? []) if (field.secret) byId<HTMLInputElement>(fieldId(field)).value = ''
}
