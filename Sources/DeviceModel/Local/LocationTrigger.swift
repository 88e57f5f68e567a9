import APNs
import Glibc

// Location triggers (DEVICE-SEMANTICS.md 6): a `CLCircularRegion` with notifyOnEntry / notifyOnExit; the
// device's simulated position moves with `Device.move(to:)`. A trigger fires when a move crosses its
// region's edge the way it asks, and only while the app has when-in-use (or always) location authorization.
// The position before the first move is unknown: that move places the device without crossing anything.

/// `CLLocationCoordinate2D`: degrees.
public struct Coordinate: Sendable, Hashable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "\(latitude),\(longitude)" }

    /// Great-circle distance in meters (haversine, on a sphere of the Earth's mean radius).
    public func distance(to other: Coordinate) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (other.latitude - latitude) * radians
        let dLongitude = (other.longitude - longitude) * radians
        let a =
            sin(dLatitude / 2) * sin(dLatitude / 2) + cos(latitude * radians) * cos(other.latitude * radians)
            * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * 6_371_000 * asin(min(1, sqrt(a)))
    }
}

/// `CLCircularRegion`.
public struct CircularRegion: Sendable, Hashable {
    public var identifier: String
    public var center: Coordinate
    /// Meters.
    public var radius: Double
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool

    public init(
        identifier: String, center: Coordinate, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = true
    ) {
        self.identifier = identifier
        self.center = center
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }

    public func contains(_ point: Coordinate) -> Bool { center.distance(to: point) <= radius }
}

/// `UNLocationNotificationTrigger`: fires when the device enters or leaves a region.
public struct LocationTrigger: Sendable, Hashable {
    public let region: CircularRegion
    public let repeats: Bool

    /// Throws for a center off the globe, a radius that is not a positive number of meters, or a region that
    /// asks for neither entry nor exit (it could never fire).
    public init(region: CircularRegion, repeats: Bool) throws(FieldError) {
        guard (-90...90).contains(region.center.latitude), (-180...180).contains(region.center.longitude) else {
            throw FieldError(field: "region.center", message: "\(region.center) is not a coordinate on the globe")
        }
        guard region.radius.isFinite, region.radius > 0 else {
            throw FieldError(field: "region.radius", message: "must be a positive number of meters")
        }
        guard region.notifyOnEntry || region.notifyOnExit else {
            throw FieldError(field: "region", message: "notifyOnEntry and notifyOnExit are both false: it never fires")
        }
        self.region = region
        self.repeats = repeats
    }
}

/// `CLAuthorizationStatus`, as far as location triggers care.
public enum LocationAuthorization: String, Sendable, Hashable {
    case notDetermined
    case restricted
    case denied
    case authorizedWhenInUse
    case authorizedAlways

    /// Apple: a location trigger needs when-in-use authorization (always includes it).
    public var allowsLocationTriggers: Bool { self == .authorizedWhenInUse || self == .authorizedAlways }
}
