import { multiply, subtract, toPlain } from '@signals/instruments'
import { decimal } from './money.ts'

/** One net position at the broker, marked at a price it could be closed at. */
export interface PositionMark {
  /** Signed contracts: positive long, negative short (the broker's net position). */
  netPos: number
  /** The broker's average entry price of the position, exact decimal text. */
  averagePrice: string
  /** The price the position could be closed at now: the bid for a long, the ask for a short. */
  markPrice: string
  /** Money per 1.0 point per contract. */
  pointValue: string
}

/**
 * Open pnl of a net position in contract currency, exact decimal text: (mark - average) x net position x
 * point value. The sign of the net position makes a short gain when the price falls.
 */
export function positionOpenPnl(position: PositionMark): string {
  const points = subtract(decimal(position.markPrice), decimal(position.averagePrice))
  return toPlain(multiply(multiply(points, decimal(position.netPos)), decimal(position.pointValue)))
}

/** The side of the market a position is closed on: a long sells (at the bid), a short buys (at the ask). */
export const closingAction = (netPos: number): 'Buy' | 'Sell' => (netPos > 0 ? 'Sell' : 'Buy')
