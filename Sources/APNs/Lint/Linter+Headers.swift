// Rules on the request's headers and device token, and the push type the payload rules use.

extension LintContext {
    mutating func checkHeaders() {
        if let value = request.pushType {
            do {
                pushType = try PushType(headerValue: value)
            } catch {
                report(.pushType, "apns-push-type", error.message)
            }
        }
        if let value = request.priority {
            do {
                priority = try Priority(headerValue: value)
            } catch {
                report(.priority, "apns-priority", error.message)
            }
        }
        if let value = request.expiration { checkExpiration(value) }
        if let value = request.collapseID {
            do {
                _ = try CollapseID(value)
            } catch {
                report(.collapseID, "apns-collapse-id", error.message, fix: "use a short id, e.g. a hash of the thread")
            }
        }
        if let value = request.apnsID {
            do {
                let id = try APNsID(value)
                if id.value != value {
                    report(.apnsIDCase, "apns-id", "'\(value)' has uppercase letters; APNs echoes ids in lowercase",
                           fix: "compare ids case-insensitively or send '\(id.value)'")
                }
            } catch {
                report(.apnsID, "apns-id", error.message)
            }
        }
        if let value = request.token, request.destination != .broadcast {
            do {
                let token = try DeviceToken(hex: value)
                if token.hex.count < DeviceToken.typicalDeviceLength {
                    report(.tokenLength, "token", "the token has \(token.hex.count) hex digits; device tokens have \(DeviceToken.typicalDeviceLength) today",
                           fix: "check that it was not cut when stored")
                }
            } catch {
                report(.token, "token", error.message)
            }
        }
    }

    private mutating func checkExpiration(_ value: String) {
        let expiration: Expiration
        do {
            expiration = try Expiration(headerValue: value)
        } catch {
            report(.expiration, "apns-expiration", error.message)
            return
        }
        guard case .at(let seconds) = expiration else { return }
        if seconds >= 100_000_000_000 {
            report(.expirationMilliseconds, "apns-expiration", "\(seconds) looks like milliseconds (year \(yearOf(seconds)) in seconds)",
                   fix: "divide by 1000")
            return
        }
        guard let now = request.now else { return }
        if seconds < now {
            report(.expirationPast, "apns-expiration", "\(seconds) is \(now - seconds) s in the past; APNs will not store it",
                   fix: "use 0 to send without storing, or a time in the future")
        } else if seconds - now > Expiration.maximumStorageSeconds {
            report(.expirationFar, "apns-expiration", "\(seconds) is \((seconds - now) / 86400) days ahead; APNs stores for about 30 days at most")
        }
    }

    /// Fills `pushType` from the payload when no valid header gave one.
    mutating func resolvePushType() {
        guard pushType == nil, request.pushType == nil else { return }
        pushTypeWasInferred = true
        if request.destination == .broadcast {
            pushType = .liveactivity
            return
        }
        if let topic = request.topic, let type = PushType.allCases.first(where: {
            guard let suffix = $0.topicSuffix, !suffix.isEmpty else { return false }
            return topic.hasSuffix(suffix)
        }) {
            pushType = type
            return
        }
        guard let root else {
            pushType = .alert
            return
        }
        if root["aps"] == nil, root["mdm"] != nil {
            pushType = .mdm
        } else if aps?["event"] != nil {
            pushType = .liveactivity
        } else if aps?["content-changed"] != nil {
            pushType = .widgets
        } else if let aps, aps["content-available"]?.intValue == 1, aps["alert"] == nil, aps["sound"] == nil,
            aps["badge"] == nil
        {
            pushType = .background
        } else {
            pushType = .alert
        }
    }

    mutating func checkTopic() {
        guard let value = request.topic else { return }
        let topic: Topic
        do {
            topic = try Topic(value)
        } catch {
            report(.topic, "apns-topic", error.message)
            return
        }
        if request.destination == .broadcast {
            if !topic.suffix.isEmpty {
                report(.broadcastTopic, "apns-topic", "'\(value)' carries the suffix '\(topic.suffix)'; broadcasts name the bare bundle id",
                       fix: "use '\(topic.bundleID)'")
            }
            return
        }
        guard let pushType, let problem = topic.problem(for: pushType) else { return }
        report(.topicSuffix, "apns-topic", problem)
    }

    mutating func checkPriority() {
        if pushType == .pushtotalk, request.expiration != "0" {
            report(.pushToTalkExpiration, "apns-expiration",
                   request.expiration.map { "is \($0); a push-to-talk push is stale at once" } ?? "is missing, so APNs may store the push and deliver it late",
                   fix: "send apns-expiration: 0")
        }
        if pushType == .background, request.priority == nil, !pushTypeWasInferred {
            report(.backgroundPriority, "apns-priority", "is missing, so APNs assumes 10; background pushes must use priority 5",
                   fix: "send apns-priority: 5")
        }
        guard let pushType, let priority else { return }
        if request.destination == .broadcast {
            if priority == .low {
                report(.priority, "apns-priority", "broadcasts use priority 5 or 10, not 1")
            }
            return
        }
        if pushType == .background {
            if priority != .powerConsiderate {
                report(.backgroundPriority, "apns-priority", "background pushes must use priority 5, not \(priority.rawValue)")
            }
            return
        }
        if pushType == .liveactivity, priority == .low {
            // The emulator refuses it (DevicePushPolicy.liveActivityPriority1IsRejected): Apple documents 10 and 5 only.
            report(.liveActivityPriority, "apns-priority", "Live Activity pushes use priority 10 or 5, not 1")
            return
        }
        let allowed = pushType.allowedPriorities
        guard !allowed.contains(priority) else { return }
        let list = allowed.map(\.headerValue).joined(separator: " or ")
        report(.priorityForType, "apns-priority", "\(pushType) pushes use priority \(list), not \(priority.rawValue)")
    }
}

/// The calendar year of a UNIX time, for "looks like milliseconds" messages.
func yearOf(_ unixSeconds: Int) -> Int {
    1970 + unixSeconds / 31_556_952
}
