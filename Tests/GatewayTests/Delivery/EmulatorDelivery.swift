import Emulator

/// The emulator's log entry. Named here, in a file that does not import Gateway, whose own
/// `Delivery` (a queue row) would make the bare name ambiguous.
typealias EmulatorDelivery = Delivery
