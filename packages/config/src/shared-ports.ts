import { ConfigError } from './errors.ts'

/**
 * Refuses two services on one port (`pnpm start` runs them all on one machine): the second would fail to
 * listen, or, behind another stack's process on that port, the gateway would forward to the wrong service.
 * `ports` maps each port variable to its value; every variable sharing a port is named.
 */
export function refuseSharedPorts(ports: Record<string, number>): void {
  const byPort = new Map<number, string[]>()
  for (const [variable, port] of Object.entries(ports)) byPort.set(port, [...(byPort.get(port) ?? []), variable])
  const offenders = [...byPort.entries()]
    .filter(([, variables]) => variables.length > 1)
    .flatMap(([port, variables]) =>
      variables.map((variable) => ({ variable, problem: `${port} is also ${variables.filter((other) => other !== variable).join(' and ')}: each service needs its own port` })),
    )
  if (offenders.length > 0) throw new ConfigError(offenders)
}
