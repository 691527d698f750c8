// A type of a module spelled with the module's name in front. `EventBus.Output` used to fail to compile while a type
// was called `EventBus` like its module; nothing may shadow the module names again.
import Broadcasters
import EventBus
import Foundation

func qualifiedNames() -> [any EventBus.EventCancellable] {
  let output: EventBus.Output<Int> = EventBus.Output()
  let hub: EventBus.EventHub = EventBus.EventHub()
  let ticks: Broadcasters.Broadcaster<Date> = Broadcasters.Broadcaster(
    source: Broadcasters.TimerSource(interval: .seconds(1)))
  let keyboard = Broadcasters.KeyboardBroadcaster(center: Foundation.NotificationCenter())
  let recorder = EventBus.EventRecorder<Int>()
  return [
    output.subscribe(recorder, on: EventBus.DeliveryContext.immediate),
    hub.subscribe(Int.self) { _ in },
    ticks.subscribe { _ in },
    keyboard.subscribe { _ in },
  ]
}
