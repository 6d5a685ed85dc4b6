// The one risk section (issue 25, item 6): the risk-engine configuration, the settings that size orders,
// drawn from risk-fields.ts. Only the chosen sizing mode's fields are shown; a field the mode does not use is
// disabled (so it neither blocks the form's validation nor is saved as edited: it keeps its stored value).
// Every field has a short help in the trader's words; the live sentence below says what the next alert
// would trade.
import type { RiskConfig } from './api-routes.ts'
import { CONTRACTS } from '@signals/instruments'
import { byId, element } from './dom.ts'
import { exampleSentence } from './risk-example.ts'
import { fieldId, labelOf, RISK_FIELDS, RISK_GROUPS, usedBy, type RiskField, type RiskMode } from './risk-fields.ts'

type Value = string | number | boolean | null
type Control = HTMLInputElement | HTMLSelectElement

let loaded: RiskConfig | null = null

// An area may be missing from a configuration written before it existed: its fields then show as unset.
const valueOf = (config: RiskConfig, field: RiskField): Value => (config[field.area] as unknown as Record<string, Value> | undefined)?.[field.field] ?? null
const control = (field: RiskField) => byId<Control>(fieldId(field))
const modeNow = (): RiskMode => byId<HTMLSelectElement>('risk-engine-riskMode-mode').value as RiskMode

function input(field: RiskField, value: Value): Control {
  if (field.kind === 'boolean') {
    const box = element('input')
    box.type = 'checkbox'
    box.checked = value === true
    return box
  }
  if (field.kind === 'choice') {
    const select = element('select')
    for (const [optionValue, optionLabel] of field.options) {
      const option = element('option', optionLabel)
      option.value = optionValue
      select.append(option)
    }
    select.value = String(value)
    return select
  }
  const number = element('input')
  number.type = 'number'
  number.min = String(field.min)
  number.max = String(field.max)
  number.step = field.integer ? '1' : 'any'
  number.required = field.nullable === undefined
  if (field.nullable) number.placeholder = field.nullable
  number.value = value === null ? '' : String(value)
  return number
}

/** The help under a field: a choice's help is its chosen option's. */
function helpText(field: RiskField, control: Control): string {
  if (field.kind !== 'choice') return field.help
  return field.options.find(([value]) => value === control.value)?.[2] ?? field.help
}

function fieldRow(field: RiskField, value: Value): HTMLElement {
  const id = fieldId(field)
  const box = input(field, value)
  box.id = id
  const help = element('small', undefined, 'help muted')
  help.id = `${id}-help`
  box.setAttribute('aria-describedby', help.id)
  const caption = element('span', field.label)
  caption.id = `${id}-label`
  const label = element('label', undefined, field.kind === 'boolean' ? 'check field' : 'field')
  if (field.kind === 'boolean') label.append(box, ' ', caption)
  else label.append(caption, box)
  const row = element('div', undefined, 'risk-field')
  row.dataset.field = `${field.area}.${field.field}`
  row.append(label, help)
  help.textContent = helpText(field, box)
  box.addEventListener('change', () => (help.textContent = helpText(field, box)))
  return row
}

/** Shows the chosen mode's fields only, with their labels in that mode. */
function showMode(): void {
  const mode = modeNow()
  for (const field of RISK_FIELDS) {
    const box = control(field)
    const used = usedBy(field, mode)
    box.disabled = !used
    const row = box.closest<HTMLElement>('.risk-field')
    if (row) row.hidden = !used
    byId(`${fieldId(field)}-label`).textContent = labelOf(field, mode)
  }
  document.dispatchEvent(new CustomEvent('signals:risk-mode', { detail: mode }))
}

/** Draws the section from the loaded configuration (complete: every area and field). */
export function renderRiskForm(config: RiskConfig): void {
  loaded = config
  const container = byId('risk-engine-fields')
  container.replaceChildren()
  for (const group of RISK_GROUPS) {
    const fieldset = element('fieldset')
    fieldset.append(element('legend', group.legend))
    const grid = element('div', undefined, 'grid')
    for (const field of group.fields) grid.append(fieldRow(field, valueOf(config, field)))
    fieldset.append(grid)
    container.append(fieldset)
  }
  byId('risk-engine-riskMode-mode').addEventListener('change', showMode)
  showMode()
  wireExample()
}

/** The complete configuration to save: the loaded one with the shown fields' values over it. */
export function readRiskForm(): RiskConfig {
  if (loaded === null) throw new Error('the risk settings are not loaded')
  const config = structuredClone(loaded) as unknown as Record<string, Record<string, Value>>
  for (const field of RISK_FIELDS) {
    const box = control(field)
    if (box.disabled) continue
    // A field of an area the loaded configuration lacks, left unset, is not invented: the service fills its default.
    if (config[field.area] === undefined && field.kind !== 'boolean' && box.value.trim() === '') continue
    const area = (config[field.area] ??= {})
    if (field.kind === 'boolean') area[field.field] = (box as HTMLInputElement).checked
    else if (field.kind === 'choice') area[field.field] = box.value
    else area[field.field] = box.value.trim() === '' ? null : Number(box.value)
  }
  return config as unknown as RiskConfig
}

/** After a save: what was saved is what a later save starts from. */
export function riskFormSaved(config: RiskConfig): void {
  loaded = config
}

/** The configuration as loaded or last saved (what a failed save puts back). */
export const loadedRiskConfig = (): RiskConfig | null => loaded

/** Points at the field a refusal names (or clears the mark with null). */
export function markRiskField(field: RiskField | undefined): void {
  for (const box of document.querySelectorAll('#risk-engine-fields [aria-invalid]')) box.removeAttribute('aria-invalid')
  if (field === undefined) return
  const box = control(field)
  box.setAttribute('aria-invalid', 'true')
  if (!box.disabled) box.focus()
}

// ------------------------------------------------------------------------------------- live sentence

const EXAMPLE_INPUTS = ['risk-example-root', 'risk-example-price', 'risk-example-stop', 'risk-example-quantity']

function updateExample(): void {
  const out = byId('risk-example')
  const invalid = RISK_FIELDS.some((field) => {
    const box = control(field)
    return !box.disabled && !box.checkValidity()
  })
  if (invalid) {
    out.textContent = 'Correct the fields marked invalid to see what the next alert would trade.'
    return
  }
  const number = (id: string) => Number(byId<HTMLInputElement>(id).value)
  out.textContent = exampleSentence(
    readRiskForm(),
    { root: byId<HTMLSelectElement>('risk-example-root').value, price: number('risk-example-price'), stopPoints: number('risk-example-stop'), quantity: number('risk-example-quantity') },
    new Date(),
  )
}

let exampleWired = false

function wireExample(): void {
  byId('risk-example-quantity-field').hidden = modeNow() !== 'alert_quantity'
  if (!exampleWired) {
    exampleWired = true
    const select = byId<HTMLSelectElement>('risk-example-root')
    for (const contract of CONTRACTS) {
      const option = element('option', `${contract.root} (${contract.name})`)
      option.value = contract.root
      select.append(option)
    }
    select.value = 'MNQ'
    for (const id of EXAMPLE_INPUTS) byId(id).addEventListener('input', updateExample)
    byId('risk-engine-fields').addEventListener('input', updateExample)
    byId('risk-engine-fields').addEventListener('change', updateExample)
    document.addEventListener('signals:risk-mode', () => {
      byId('risk-example-quantity-field').hidden = modeNow() !== 'alert_quantity'
    })
  }
  updateExample()
}
