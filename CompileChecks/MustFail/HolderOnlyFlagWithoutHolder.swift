// expected-error: missing argument for parameter #1 in call
// An entry's round flags are the holder's: reading one needs the DeliveryHolder that only a claim of the delivery
// makes, so code that does not hold the delivery cannot read them.
@testable import EventBus

func roundFlagWithoutHolder(_ entry: Entry) -> Bool {
  entry.isSkipped()
}
