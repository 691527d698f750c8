// expected-error: missing argument for parameter #2 in call
// The round's skipped entries are the holder's: reading them needs the DeliveryHolder that only a claim of the
// delivery makes, so code that does not hold the delivery cannot read them.
@testable import EventBus

func roundFlagWithoutHolder(_ round: borrowing RoundList<Int>, _ entry: Entry) -> Bool {
  round.isSkipped(entry)
}
