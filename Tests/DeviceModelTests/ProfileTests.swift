import APNs
import DeviceModel
import Testing

/// Device profiles (docs/DEVICE.md, "Device profiles"): what they parse into, and errors that name the field.
@Suite(.timeLimit(.minutes(1)))
struct ProfileTests {
    static let minimal = #"{"app":{"bundle-id":"com.example.app"},"script":[]}"#

    @Test("a profile parses into the app, its categories, delegate, extension, user and script")
    func parsesEverything() throws {
        let profile = try DeviceProfile(
            json: Array(
                #"""
                {"app":{"bundle-id":"com.example.app","aps-environment":"production","entitlements":["time-sensitive"],
                  "background-modes":["remote-notification"],
                  "categories":[{"id":"MESSAGE","options":["custom-dismiss-action"],"actions":[
                    {"id":"reply","title":"Reply","options":["foreground"],"text-input":{"button":"Send","placeholder":"Say"}}]}],
                  "delegate":{"will-present":["banner","list"],"did-receive":true},
                  "service-extension":{"behaviour":"rewrite","body":"Decrypted","after":2},
                  "push-to-start":["DeliveryAttributes"]},
                 "user":{"authorization":"dont-allow"},
                 "device":{"locked":true,"seed":7,"foreground-without-delegate":"present"},
                 "script":[{"launch":{}},{"wait":30},{"tap-action":{"action":"reply","text":"Hi"}},
                   {"push":{"to":"push-to-start:DeliveryAttributes","push-type":"liveactivity","payload":{"aps":{}}}}]}
                """#.utf8))
        #expect(profile.app.bundleID == "com.example.app" && profile.app.entitlements.apsEnvironment == .production)
        #expect(profile.app.entitlements.timeSensitive && profile.app.backgroundModes == [.remoteNotification])
        let reply = try #require(profile.categories.first?.actions.first as? TextInputNotificationAction)
        #expect(reply.textInputButtonTitle == "Send" && reply.options == [.foreground])
        #expect(profile.categories.first?.options == [.customDismissAction])
        #expect(profile.delegate == DeviceProfile.DelegateChoice(willPresent: [.banner, .list], didReceive: true))
        #expect(profile.serviceExtension == .init(behaviour: .rewrite, body: "Decrypted", after: 2))
        #expect(profile.user.authorizationAnswer == .dontAllow && profile.locked && profile.seed == 7)
        #expect(profile.deviceConfiguration.foregroundWithoutDelegate == .presentAsInBackground)
        #expect(profile.script.count == 4 && profile.script[1] == .wait(30))
        #expect(profile.script[2] == .chooseAction("reply", text: "Hi", notification: nil))
    }

    static let errors: [(String, String)] = [
        ("[]", "profile: must be an object, not an array"),
        (#"{"script":[]}"#, "app: is missing"),
        (#"{"app":{},"script":[]}"#, "app.bundle-id: is missing"),
        (#"{"app":{"bundle-id":"a.b"}}"#, "script: is missing"),
        (#"{"app":{"bundle-id":"a.b","colour":"red"},"script":[]}"#, "app.colour: is not a profile field here"),
        (#"{"app":{"bundle-id":"a.b","categories":[{"actions":[]}]},"script":[]}"#, "app.categories[0].id: is missing"),
        (
            #"{"app":{"bundle-id":"a.b","categories":[{"id":"C","actions":[{"title":"x"}]}]},"script":[]}"#,
            "app.categories[0].actions[0].id: is missing"
        ),
        (
            #"{"app":{"bundle-id":"a.b","entitlements":["push"]},"script":[]}"#,
            "app.entitlements[0]: 'push' is not one of"
        ),
        (
            #"{"app":{"bundle-id":"a.b"},"user":{"authorization":"maybe"},"script":[]}"#,
            "user.authorization: 'maybe' is not one of"
        ),
        (#"{"app":{"bundle-id":"a.b"},"script":[{"fly":{}}]}"#, "script[0].fly: is not a step"),
        (
            #"{"app":{"bundle-id":"a.b"},"script":[{"launch":{},"register":{}}]}"#,
            "script[0]: must be an object with one key"
        ),
        (
            #"{"app":{"bundle-id":"a.b"},"script":[{"tap-action":{"text":"hi"}}]}"#,
            "script[0].tap-action.action: is missing"
        ),
        (#"{"app":{"bundle-id":"a.b"},"script":[{"wait":-1}]}"#, "script[0].wait: must be a number of seconds"),
        (#"{"app":{"bundle-id":"a.b"},"script":[{"push":{}}]}"#, "script[0].push.payload: is missing"),
        (
            #"{"app":{"bundle-id":"a.b"},"script":[{"push":{"payload":{},"to":"moon"}}]}"#,
            "script[0].push.to: 'moon' is not"
        ),
        (
            #"{"app":{"bundle-id":"a.b"},"script":[{"push":{"payload":{},"to":"channel:YQ==","priority":7}}]}"#,
            "script[0].push.push-type: must be liveactivity"
        ),
        (
            #"{"app":{"bundle-id":"a.b"},"script":[{"push":{"payload":{},"push-type":"liveactivity","priority":7}}]}"#,
            "script[0].push.priority: must be 10, 5 or 1"
        ),
        (#"{"app":{"bundle-id":"a.b"},"script":[{"rotate":{"reason":"flood"}}]}"#, "script[0].rotate.reason: 'flood'"),
        (#"{"app":{"bundle-id":"a.b"},"script":[{"focus":{"nme":"Work"}}]}"#, "script[0].focus.nme"),
        (
            #"{"app":{"bundle-id":"a.b"},"script":[{"scheduled-summary":{"times":["25:00"]}}]}"#,
            "script[0].scheduled-summary.times[0]: '25:00' is not a time of day"
        ),
        (
            #"{"app":{"bundle-id":"a.b"},"script":[{"move":{"latitude":"north"}}]}"#,
            "script[0].move.latitude: must be a number of degrees"
        ),
        (
            #"{"app":{"bundle-id":"a.b"},"script":[{"add-local-region":{"id":"r","latitude":1,"longitude":2,"radius":-5}}]}"#,
            "script[0].add-local-region.region.radius: must be a positive number"
        ),
        (
            #"{"app":{"bundle-id":"a.b"},"script":[{"location-authorization":"sometimes"}]}"#,
            "script[0].location-authorization: 'sometimes' is not one of"
        ),
    ]

    @Test("a bad profile is an error naming the field", arguments: errors)
    func errorsNameTheField(_ json: String, _ message: String) {
        #expect {
            _ = try DeviceProfile(json: Array(json.utf8))
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test("a step that cannot run names the step: a tap with nothing in Notification Center")
    func stepErrorsNameTheStep() throws {
        let profile = try DeviceProfile(
            json: Array(#"{"app":{"bundle-id":"a.b"},"script":[{"launch":{}},{"open":{}}]}"#.utf8))
        #expect {
            try ProfileRun(profile).runOffline()
        } throws: { error in
            "\(error)" == "script[1].open: there is no notification in Notification Center to act on"
        }
    }

    @Test("LOCAL-TIME-INTERVAL (6, O) in a profile: a repeating add-local under 60 s names the step")
    func repeatingIntervalNamesTheStep() throws {
        let profile = try DeviceProfile(
            json: Array(
                #"{"app":{"bundle-id":"a.b"},"script":[{"add-local":{"id":"r","title":"t","after":30,"repeats":true}}]}"#
                    .utf8))
        #expect {
            try ProfileRun(profile).runOffline()
        } throws: { error in
            "\(error)".hasPrefix("script[0].add-local.after: ")
        }
    }

    @Test("an offline run rejects wait-for-push: pushes need an emulator")
    func waitForPushNeedsAnEmulator() throws {
        let profile = try DeviceProfile(
            json: Array(#"{"app":{"bundle-id":"a.b"},"script":[{"wait-for-push":{}}]}"#.utf8))
        #expect(throws: FieldError.self) { try ProfileRun(profile).runOffline() }
    }

    @Test("the timeline's JSON lines carry the rule, its label and the notification id")
    func timelineJSON() throws {
        let profile = try DeviceProfile(
            json: Array(
                #"{"app":{"bundle-id":"a.b"},"script":[{"launch":{}},{"request-authorization":["alert"]},{"register":{}},{"background":{}},{"push":{"collapse-id":"x","payload":{"aps":{"alert":"Hi"}}}}]}"#
                    .utf8))
        let run = ProfileRun(profile)
        try run.runOffline()
        let last = try JSONValue(parsing: Array(try #require(run.device.timeline.entries.last).jsonLine.utf8))
        #expect(last["kind"] == "presented" && last["rule"] == "PRESENT-SETTINGS" && last["label"] == "D")
        #expect(last["notification-id"] == "x" && last["app"] == "a.b")
    }
}
