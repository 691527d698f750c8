// A test target that imports EventBusTesting sees EventBus as well, `EventRecorder` among it, with no second import.
@_exported import EventBus
