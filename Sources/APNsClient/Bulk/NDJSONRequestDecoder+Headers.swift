import APNs

extension NDJSONRequestDecoder {
    /// A line's header values as text: the line's own, else the decoder's defaults.
    struct HeaderTexts {
        var topic: String?
        var pushType: String?
        var priority: String?
        var expiration: String?
        var collapseID: String?
        var apnsID: String?

        init(defaults decoder: NDJSONRequestDecoder) {
            topic = decoder.topic
            pushType = decoder.pushType
            priority = decoder.priority
            expiration = decoder.expiration
            collapseID = decoder.collapseID
        }

        /// Sets the header named `key` (one of `headerKeys`; any other name is ignored).
        mutating func set(_ key: String, _ value: String?) {
            switch key {
            case "apns-topic": topic = value
            case "apns-push-type": pushType = value
            case "apns-priority": priority = value
            case "apns-expiration": expiration = value
            case "apns-collapse-id": collapseID = value
            case "apns-id": apnsID = value
            default: break
            }
        }
    }

    /// The default header values, checked.
    struct Defaults {
        var topic: Topic?
        var pushType: PushType?
        var priority: Priority?
        var expiration: Expiration?
        var collapseID: CollapseID?
    }

    /// This decoder with the default headers checked ahead, for a thread that decodes many lines
    /// (the same results, not checked again per line).
    public func prepared() -> NDJSONRequestDecoder {
        var decoder = self
        decoder.checked = checkedDefaults()
        return decoder
    }

    /// The default header values, checked (once, by `prepared()`, for a decoding thread); a
    /// failure leaves every line to `build(texts:)`, which words the error as for any line.
    func checkedDefaults() -> Result<Defaults, FieldError> {
        Result { () throws(FieldError) in
            Defaults(
                topic: try topic.map(Topic.init), pushType: try pushType.map(PushType.init(headerValue:)),
                priority: try priority.map(Priority.init(headerValue:)),
                expiration: try expiration.map(Expiration.init(headerValue:)),
                collapseID: try collapseID.map(CollapseID.init))
        }
    }
}
