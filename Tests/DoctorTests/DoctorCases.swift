import APNs
import DeviceModel
import Doctor

/// Payloads and device profiles shared by the doctor's tests.
enum DoctorCases {
    static let token = String(repeating: "ab", count: 32)
    static let alert = #"{"aps":{"alert":{"title":"Order","body":"Shipped"}}}"#
    static let silent = #"{"aps":{"content-available":1}}"#

    static func request(
        _ payload: String, type: String? = nil, priority: String? = nil, collapseID: String? = nil,
        expiration: String? = nil
    ) -> LintRequest {
        LintRequest(
            payload: Array(payload.utf8), pushType: type, topic: "com.example.app", priority: priority,
            expiration: expiration, collapseID: collapseID, token: token, now: 1_767_258_000)
    }

    static func profile(_ json: String) throws -> DeviceProfile {
        try DeviceProfile(json: Array(json.utf8))
    }

    /// In the foreground, with a delegate that implements didReceive but not willPresent.
    static let foregroundNoWillPresent = #"""
        {"app": {"bundle-id": "com.example.app", "delegate": {"did-receive": true}},
         "script": [{"launch": {}}, {"request-authorization": ["alert", "sound"]}, {"register": {}},
                    {"wait-for-push": {}}]}
        """#

    /// In the background, with a service extension that never calls its content handler.
    static let extensionNeverCalls = #"""
        {"app": {"bundle-id": "com.example.app", "service-extension": {"behaviour": "never-call"}},
         "script": [{"launch": {}}, {"request-authorization": ["alert", "badge"]}, {"register": {}},
                    {"background": {}}, {"wait-for-push": {}}]}
        """#

    /// Three background pushes have used the hour's budget when the fourth comes.
    static let budgetSpent = #"""
        {"app": {"bundle-id": "com.example.app", "background-modes": ["remote-notification"]},
         "script": [{"launch": {}}, {"register": {}}, {"background": {}},
                    {"push": {"push-type": "background", "payload": {"aps": {"content-available": 1}}}},
                    {"wait": 60},
                    {"push": {"push-type": "background", "payload": {"aps": {"content-available": 1}}}},
                    {"wait": 60},
                    {"push": {"push-type": "background", "payload": {"aps": {"content-available": 1}}}},
                    {"wait": 60}, {"wait-for-push": {}}]}
        """#

    /// In the background under a Focus that does not allow the app.
    static let focusOn = #"""
        {"app": {"bundle-id": "com.example.app", "delegate": {"will-present": ["banner", "list"], "did-receive": true}},
         "script": [{"launch": {}}, {"request-authorization": ["alert", "sound"]}, {"register": {}},
                    {"background": {}}, {"focus": {"name": "Work"}}, {"wait-for-push": {}}]}
        """#

    /// In the background with the scheduled summary on (the app in it).
    static let summaryOn = #"""
        {"app": {"bundle-id": "com.example.app", "delegate": {"will-present": ["banner", "list"], "did-receive": true}},
         "script": [{"launch": {}}, {"request-authorization": ["alert", "sound"]}, {"register": {}},
                    {"background": {}}, {"scheduled-summary": {}}, {"wait-for-push": {}}]}
        """#

    /// Everything right: authorized, in the background.
    static let healthy = #"""
        {"app": {"bundle-id": "com.example.app", "delegate": {"will-present": ["banner", "list"], "did-receive": true}},
         "script": [{"launch": {}}, {"request-authorization": ["alert", "sound"]}, {"register": {}},
                    {"background": {}}, {"wait-for-push": {}}]}
        """#

    /// The user said no to the prompt.
    static let denied = #"""
        {"app": {"bundle-id": "com.example.app"}, "user": {"authorization": "dont-allow"},
         "script": [{"launch": {}}, {"request-authorization": ["alert", "sound"]}, {"register": {}},
                    {"background": {}}]}
        """#
}
